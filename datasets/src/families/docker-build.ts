import { type Family, LabelledText, type Scale, type ToolOutputDraft } from '../labelled-text.js';
import type { Rng } from '../prng.js';
import { humanBytes } from '../text-layout.js';
import { imageRef } from '../vocab-infra.js';
import { projectName } from '../vocab-words.js';
import { dockerfile, type Failure, renderBody } from './docker-steps.js';

/**
 * `docker build` output in BuildKit's plain-progress style (`#8 1.203 …`) and the legacy builder's
 * `Step 4/9 :` style, for Python, Node and Go images. Step bodies reuse the pip and npm renderers and add
 * apt and compiler output. Kept lines: the failing step's header, the error lines inside it (and their
 * echo in the `------` summary), the `>>>` Dockerfile line and the final `ERROR: failed to solve` /
 * `returned a non-zero code` line; on success the line naming the built image.
 */

function stamp(t: number): string {
  return t < 10 ? t.toFixed(3) : t < 100 ? t.toFixed(2) : t.toFixed(1);
}

function generate(rng: Rng, scale: Scale, index: number): ToolOutputDraft {
  const out = new LabelledText();
  const stack = (['python', 'node', 'go'] as const)[index % 3]!;
  const steps = dockerfile(rng, stack);
  const failure: Failure = (
    ['install', 'none', 'compile', 'install', 'apt', 'copy', 'none', 'install', 'compile'] as const
  )[index % 9]!;
  const legacy = rng.chance(0.2);
  const name = projectName(rng);
  const tag = imageRef(rng, name);
  const failIdx = steps.findIndex((s) =>
    failure === 'install'
      ? s.body === 'pip' || s.body === 'npm' || s.instr === 'RUN go mod download'
      : failure === 'compile'
        ? s.body === 'compile'
        : failure === 'apt'
          ? s.body === 'apt'
          : failure === 'copy'
            ? s.instr.startsWith('COPY --from') || s.instr === 'COPY . .'
            : false,
  );
  const dockerLines: string[] = [];
  const lineOf: number[] = [];
  steps.forEach((s, i) => {
    if (i > 0 && (s.instr.startsWith('FROM') || rng.chance(0.3))) dockerLines.push('');
    if (rng.chance(0.15))
      dockerLines.push(
        `# ${rng.pick(['install deps first for better caching', 'runtime image', 'build', 'keep the image small'])}`,
      );
    lineOf.push(dockerLines.length + 1);
    dockerLines.push(s.instr);
  });
  const bigInstall = scale;

  out.add(
    `$ docker build ${rng.pick(['-t', '--tag'])} ${tag} ${rng.pick(['.', '-f Dockerfile .', '--progress=plain .', '--platform linux/amd64 .'])}`,
  );
  let failed = false;
  if (legacy) {
    out.add('DEPRECATED: The legacy builder is deprecated and will be removed in a future release.');
    out.add('            Install the buildx component to build images with BuildKit:');
    out.add('            https://docs.docker.com/go/buildx/');
    out.add('');
    out.add(
      `Sending build context to Docker daemon  ${humanBytes(rng.int(20_000, 90_000_000)).replace(' ', '')}`,
    );
    for (let i = 0; i < steps.length && !failed; i++) {
      const s = steps[i]!;
      const isFail = i === failIdx;
      out.add(`Step ${i + 1}/${steps.length} : ${s.instr}`, isFail);
      if (s.instr.startsWith('FROM') && rng.chance(0.5)) {
        out.add(
          `${s.instr.split(' ')[1]!.split(':')[1]}: Pulling from library/${s.instr.split(' ')[1]!.split(':')[0]}`,
        );
        for (let k = rng.int(2, 6); k > 0; k--) out.add(`${rng.hex(12)}: Pull complete`);
        out.add(`Digest: sha256:${rng.hex(64)}`);
        out.add(`Status: Downloaded newer image for ${s.instr.split(' ')[1]}`);
      }
      if (s.body !== 'none' || (isFail && failure === 'copy')) {
        if (isFail && failure === 'copy') {
          out.add(
            `COPY failed: file not found in build context or excluded by .dockerignore: stat ${s.instr.split(' ')[1]}: file does not exist`,
            true,
          );
          failed = true;
          break;
        }
        out.add(` ---> Running in ${rng.hex(12)}`);
        failed = renderBody(rng, out, s, stack, isFail, bigInstall, failure);
        if (failed) {
          out.add(
            `The command '/bin/sh -c ${s.instr.slice(4)}' returned a non-zero code: ${rng.pick([1, 1, 2, 100])}`,
            true,
          );
          break;
        }
        out.add(`Removing intermediate container ${rng.hex(12)}`);
      } else if (i > 0 && rng.chance(0.4)) {
        out.add(' ---> Using cache');
      }
      out.add(` ---> ${rng.hex(12)}`);
    }
    if (!failed) {
      const id = rng.hex(12);
      out.add(`Successfully built ${id}`);
      out.add(`Successfully tagged ${tag}`, true);
    }
  } else {
    out.add(
      `#0 building with "${rng.pick(['default', 'desktop-linux', 'builder'])}" instance using docker driver`,
    );
    out.add('');
    let n = 1;
    const meta = [
      ...new Set(steps.filter((s) => s.instr.startsWith('FROM')).map((s) => s.instr.split(' ')[1]!)),
    ];
    out.add(`#${n} [internal] load build definition from Dockerfile`);
    out.add(`#${n} transferring dockerfile: ${rng.int(300, 2400)}B done`);
    out.add(`#${n++} DONE 0.0s`);
    out.add('');
    for (const img of meta) {
      out.add(`#${n} [internal] load metadata for ${img.includes('/') ? img : `docker.io/library/${img}`}`);
      out.add(`#${n++} DONE ${rng.float(0.3, 2.5).toFixed(1)}s`);
      out.add('');
    }
    out.add(`#${n} [internal] load .dockerignore`);
    out.add(`#${n} transferring context: ${rng.int(2, 400)}B done`);
    out.add(`#${n++} DONE 0.0s`);
    out.add('');
    const stageCount = new Map<number, number>();
    for (const s of steps) stageCount.set(s.stage, (stageCount.get(s.stage) ?? 0) + 1);
    const seen = new Map<number, number>();
    const cachedUntil = rng.int(0, 3);
    for (let i = 0; i < steps.length; i++) {
      const s = steps[i]!;
      const k = (seen.get(s.stage) ?? 0) + 1;
      seen.set(s.stage, k);
      const label = `[${stageCount.size > 1 ? `${s.stage === 0 ? (s.instr.includes(' AS ') ? s.instr.split(' AS ')[1] : 'stage-0') : `stage-${s.stage}`} ` : ''}${k}/${stageCount.get(s.stage)}] ${s.instr}`;
      const isFail = i === failIdx;
      const stepNo = n++;
      out.add(`#${stepNo} ${label}`, isFail);
      if (s.instr.startsWith('FROM')) {
        const img = s.instr.split(' ')[1]!;
        const full = img.includes('/') ? img : `docker.io/library/${img}`;
        out.add(`#${stepNo} resolve ${full}@sha256:${rng.hex(64)} ${rng.float(0, 0.1).toFixed(1)}s done`);
        for (let l = rng.int(0, 5); l > 0; l--) {
          const size = rng.int(1_000, 60_000_000);
          out.add(
            `#${stepNo} sha256:${rng.hex(64)} ${humanBytes(size).replace(' ', '')} / ${humanBytes(size).replace(' ', '')} ${rng.float(0.1, 4).toFixed(1)}s done`,
          );
        }
        out.add(`#${stepNo} DONE ${rng.float(0.1, 9).toFixed(1)}s`);
        out.add('');
        continue;
      }
      if (i <= cachedUntil + 1 && failIdx !== i && s.body !== 'compile') {
        out.add(`#${stepNo} CACHED`);
        out.add('');
        continue;
      }
      if (
        (s.instr.startsWith('COPY') || s.instr.startsWith('WORKDIR') || s.instr.startsWith('ENV')) &&
        !isFail
      ) {
        out.add(`#${stepNo} DONE ${rng.float(0, 0.6).toFixed(1)}s`);
        out.add('');
        continue;
      }
      if (isFail && failure === 'copy') {
        const src = s.instr.split(' ')[1]!.replace('--from=build', '').trim() || s.instr.split(' ')[2]!;
        out.add(
          `#${stepNo} ERROR: failed to calculate checksum of ref ${rng.alnum(25)}::${rng.alnum(25)}: "${src.startsWith('/') ? src : `/${src}`}": not found`,
          true,
        );
        out.add('------');
        out.add(` > ${label}:`);
        out.add('------');
        failed = true;
        finishFailure(
          out,
          dockerLines,
          lineOf[i]!,
          `failed to compute cache key: failed to calculate checksum of ref ${rng.alnum(25)}::${rng.alnum(25)}: "${src.startsWith('/') ? src : `/${src}`}": not found`,
        );
        break;
      }
      let t = rng.float(0.05, 0.6);
      out.setPrefix(() => {
        t += rng.logNormal(0.05, 1.2);
        return `#${stepNo} ${stamp(t)} `;
      });
      const before = out.lineCount;
      failed = renderBody(rng, out, s, stack, isFail, bigInstall, failure);
      out.setPrefix(null);
      if (failed) {
        const cmd = `/bin/sh -c ${s.instr.slice(4)}`;
        const code = s.body === 'apt' ? 100 : rng.pick([1, 1, 2]);
        out.add(`#${stepNo} ERROR: process "${cmd}" did not complete successfully: exit code: ${code}`, true);
        out.add('------');
        out.add(` > ${label}:`);
        // BuildKit echoes the last lines of the failing step without the step number.
        const { text } = out.finish();
        const all = text.split('\n');
        const tail = all
          .slice(Math.max(before, all.length - 14), all.length - 4)
          .filter((l) => l.startsWith(`#${stepNo} `));
        for (const l of tail) out.add(l.slice(`#${stepNo} `.length), /ERROR|error|Error|E: /.test(l));
        out.add('------');
        finishFailure(
          out,
          dockerLines,
          lineOf[i]!,
          `process "${cmd}" did not complete successfully: exit code: ${code}`,
        );
        break;
      }
      out.add(`#${stepNo} DONE ${stamp(t + rng.float(0.1, 2))}s`);
      out.add('');
    }
    if (!failed) {
      const e = n;
      out.add(`#${e} exporting to image`);
      out.add(`#${e} exporting layers ${rng.float(0.2, 9).toFixed(1)}s done`);
      out.add(`#${e} writing image sha256:${rng.hex(64)} done`);
      out.add(`#${e} naming to ${tag.includes('/') ? tag : `docker.io/library/${tag}`} done`, true);
      out.add(`#${e} DONE ${rng.float(0.2, 9).toFixed(1)}s`);
    }
  }
  const { text, keep } = out.finish();
  return {
    name: `docker-build-${String(index).padStart(2, '0')}-${stack}-${failed ? failure : 'ok'}`,
    ext: 'log',
    kind: 'tool_output',
    text,
    keep,
    task: failed ? 'find why the image build fails' : 'build the image and report its tag',
    why: failed
      ? `the ${failure} step fails: its step header, the error lines inside it and in the summary, the Dockerfile line marked >>> and the final error`
      : 'the build succeeded: the line naming or tagging the image',
  };
}

function finishFailure(
  out: LabelledText,
  dockerLines: readonly string[],
  line: number,
  message: string,
): void {
  out.add('Dockerfile:' + line);
  out.add('--------------------');
  const width = String(Math.min(dockerLines.length, line + 2)).length + 1;
  for (let l = Math.max(1, line - 2); l <= Math.min(dockerLines.length, line + 2); l++) {
    const mark = l === line ? '>>>' : '   ';
    out.add(` ${String(l).padStart(width)} | ${mark} ${dockerLines[l - 1]}`.trimEnd(), l === line);
  }
  out.add('--------------------');
  out.add(`ERROR: failed to solve: ${message}`, true);
}

/** The docker-build family. */
export const dockerBuildFamily: Family = {
  name: 'docker-build',
  scales: ['medium', 'small', 'large', 'medium', 'huge', 'small', 'medium', 'large'],
  generate,
};
