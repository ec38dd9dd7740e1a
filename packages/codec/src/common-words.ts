/**
 * Frequent English and programming words of four letters or more: the words an agent's own replies are
 * made of. A tool-output line written in them (prose, a docstring, an error sentence) shares a reference
 * token with almost any later reply; a line of hashes and numbers does not. Written by hand, lower case.
 */
export const COMMON_WORDS: ReadonlySet<string> = new Set(
  `that this with from have will what when where which would should could there their about these those
  then than them they were been being into only also more most some such each other make made just like
  need needs used uses using first last line lines file files code test tests error errors value values
  name names type types true false null none self class import export return function functions method
  data path paths list string number object array should must does done call calls called check issue
  problem change changes changed update updated add added remove removed fix fixed after before because
  while since still even again here there help work works working result results output input case cases
  default option options config version module modules package source build run running time times show
  shows found find read write set get new now all any can not but for the and you are was has its our
  message messages status state model models field fields user users text event events key keys item items
  order index start end main next point root base level local global public private static void const
  print info warn debug trace line test passed failed fail pass success ok yes`
    .split(/\s+/)
    .filter((w) => w.length >= 4),
);
