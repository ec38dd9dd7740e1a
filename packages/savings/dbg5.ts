import { importFile, inputTokens, replaySession, shippedProfile } from './src/index.js';

const [s] = importFile(process.argv[2]!);
const r = await replaySession(s!, { profile: shippedProfile(s!.api) });
let k = 0;
for (const c of r.direct.calls) {
  const u = s!.calls[k]!.usage;
  if (k % 8 === 0)
    console.log(
      k,
      'sim input',
      inputTokens(c.bill!),
      'rec input',
      u ? u.input + u.cacheRead + u.cacheWrite : null,
      'sim cached',
      c.bill!.cacheRead,
      'rec cached',
      u?.cacheRead,
    );
  k++;
}
