import type { Rng } from './prng.js';
import { words } from './vocab-words.js';

/**
 * Package names of the four ecosystems the corpus covers, with the major versions that were current in
 * the dataset's date window. Names are real (facts), versions are composed per file.
 */

/** `name@major` entries: the major is kept so composed versions stay plausible. */
function registry(list: string): readonly (readonly [string, number])[] {
  return Object.freeze(
    words(list).map((entry) => {
      const at = entry.lastIndexOf('@');
      return Object.freeze([entry.slice(0, at), Number(entry.slice(at + 1))] as const);
    }),
  );
}

export const NPM_PACKAGES = registry(`
  react@18 react-dom@18 lodash@4 express@4 axios@1 typescript@5 eslint@8 prettier@3 jest@29 vitest@1
  @babel/core@7 @babel/preset-env@7 @types/node@20 @types/react@18 webpack@5 webpack-cli@5 vite@5
  zod@3 dayjs@1 date-fns@3 uuid@9 chalk@5 commander@11 yargs@17 debug@4 semver@7 glob@10 rimraf@5
  fast-glob@3 micromatch@4 postcss@8 tailwindcss@3 autoprefixer@10 esbuild@0 rollup@4 ts-node@10
  @typescript-eslint/parser@6 @typescript-eslint/eslint-plugin@6 eslint-plugin-import@2 pg@8
  mongoose@8 redis@4 ioredis@5 knex@3 prisma@5 @prisma/client@5 jsonwebtoken@9 bcrypt@5 dotenv@16
  cors@2 helmet@7 morgan@1 winston@3 pino@8 ws@8 socket.io@4 node-fetch@3 undici@6 graphql@16
  @apollo/server@4 next@14 nodemon@3 concurrently@8 husky@9 lint-staged@15 supertest@6 nock@13
  sinon@17 chai@4 mocha@10 @testing-library/react@14 @testing-library/jest-dom@6 msw@2 sharp@0
  inflight@1 rimraf@3 glob@7 stable@0 sourcemap-codec@1 abab@2 domexception@4 w3c-hr-time@1
`);

/** npm packages real installs warn about as deprecated, with the message style npm prints. */
export const NPM_DEPRECATIONS: readonly (readonly [string, string])[] = Object.freeze([
  ['inflight@1.0.6', 'This module is not supported, and leaks memory. Do not use it.'],
  ['rimraf@3.0.2', 'Rimraf versions prior to v4 are no longer supported'],
  ['glob@7.2.3', 'Glob versions prior to v9 are no longer supported'],
  [
    'stable@0.1.8',
    'Modern JS already guarantees Array#sort() is a stable sort, so this library is deprecated.',
  ],
  ['sourcemap-codec@1.4.8', 'Please use @jridgewell/sourcemap-codec instead'],
  ['abab@2.0.6', "Use your platform's native atob() and btoa() methods instead"],
  ['domexception@4.0.0', "Use your platform's native DOMException instead"],
  ['w3c-hr-time@1.0.2', "Use your platform's native performance.now() and performance.timeOrigin."],
  [
    'uuid@3.4.0',
    'Please upgrade  to version 7 or higher.  Older versions may use Math.random() in certain circumstances.',
  ],
  ['request@2.88.2', 'request has been deprecated, see https://github.com/request/request/issues/3142'],
  ['@humanwhocodes/config-array@0.11.14', 'Use @eslint/config-array instead'],
  ['@humanwhocodes/object-schema@2.0.3', 'Use @eslint/object-schema instead'],
]);

export const PYPI_PACKAGES = registry(`
  requests@2 urllib3@2 certifi@2024 charset-normalizer@3 idna@3 numpy@1 pandas@2 pydantic@2
  pydantic-core@2 fastapi@0 starlette@0 uvicorn@0 sqlalchemy@2 alembic@1 psycopg2-binary@2 httpx@0
  httpcore@1 anyio@4 sniffio@1 h11@0 click@8 rich@13 typer@0 attrs@23 pytest@8 pytest-cov@4
  pytest-asyncio@0 coverage@7 pluggy@1 iniconfig@2 packaging@24 tomli@2 black@24 ruff@0 mypy@1
  mypy-extensions@1 typing-extensions@4 jinja2@3 markupsafe@2 pyyaml@6 python-dateutil@2 six@1
  pytz@2024 tzdata@2024 boto3@1 botocore@1 s3transfer@0 jmespath@1 redis@5 celery@5 kombu@5
  billiard@4 vine@5 amqp@5 orjson@3 structlog@24 tenacity@8 cryptography@42 cffi@1 pycparser@2
  grpcio@1 protobuf@4 scipy@1 scikit-learn@1 joblib@1 threadpoolctl@3 pillow@10 lxml@5 freezegun@1
`);

export const CRATES = registry(`
  serde@1 serde_json@1 serde_derive@1 tokio@1 tokio-macros@2 anyhow@1 thiserror@1 clap@4 clap_derive@4
  tracing@0 tracing-subscriber@0 tracing-core@0 futures@0 futures-util@0 bytes@1 hyper@1 reqwest@0
  rand@0 rand_core@0 regex@1 regex-syntax@0 aho-corasick@1 memchr@2 once_cell@1 itertools@0 chrono@0
  uuid@1 log@0 env_logger@0 libc@0 cfg-if@1 proc-macro2@1 quote@1 syn@2 unicode-ident@1
  parking_lot@0 smallvec@1 hashbrown@0 indexmap@2 base64@0 sha2@0 digest@0 crossbeam-channel@0
  rayon@1 rayon-core@1 toml@0 axum@0 tower@0 http@1 pin-project-lite@0 mio@0 socket2@0 async-trait@0
`);

/** `groupId:artifactId@major`. */
export const MAVEN_ARTIFACTS = registry(`
  org.springframework.boot:spring-boot-starter-web@3 org.springframework.boot:spring-boot-starter-test@3
  org.springframework:spring-core@6 org.springframework:spring-context@6 com.fasterxml.jackson.core:jackson-databind@2
  com.fasterxml.jackson.core:jackson-core@2 com.google.guava:guava@33 org.apache.commons:commons-lang3@3
  commons-io:commons-io@2 org.slf4j:slf4j-api@2 ch.qos.logback:logback-classic@1 org.junit.jupiter:junit-jupiter@5
  org.junit.jupiter:junit-jupiter-api@5 org.mockito:mockito-core@5 org.assertj:assertj-core@3
  org.hamcrest:hamcrest@2 org.apache.maven.plugins:maven-surefire-plugin@3
  org.apache.maven.plugins:maven-compiler-plugin@3 org.apache.maven.plugins:maven-resources-plugin@3
  org.apache.maven.plugins:maven-jar-plugin@3 org.jacoco:jacoco-maven-plugin@0 io.netty:netty-handler@4
  org.postgresql:postgresql@42 com.zaxxer:HikariCP@5 org.flywaydb:flyway-core@10 io.micrometer:micrometer-core@1
  org.projectlombok:lombok@1 jakarta.validation:jakarta.validation-api@3 org.hibernate.orm:hibernate-core@6
`);

/** A plausible version for a registry entry: its major, a minor and a patch. */
export function versionOf(rng: Rng, major: number): string {
  if (major >= 2000) return `${major}.${rng.int(1, 12)}.${rng.int(1, 28)}`;
  if (major === 0) return `0.${rng.int(1, 40)}.${rng.int(0, 24)}`;
  return `${major}.${rng.int(0, 24)}.${rng.int(0, 19)}`;
}

/** `n` distinct packages with composed versions. */
export function packagesWithVersions(
  rng: Rng,
  list: readonly (readonly [string, number])[],
  n: number,
): { name: string; version: string }[] {
  return rng.sample(list, n).map(([name, major]) => ({ name, version: versionOf(rng, major) }));
}

/** `3.11` from `3.11.9`. */
export function pyMinor(version: string): string {
  return version.split('.').slice(0, 2).join('.');
}

export const PYTHON_VERSIONS = words('3.8.18 3.9.19 3.10.14 3.11.9 3.12.4 3.12.7 3.13.0');
export const NODE_VERSIONS = words('v18.19.1 v18.20.4 v20.11.1 v20.15.0 v20.18.0 v22.3.0 v22.9.0');
export const NPM_VERSIONS = words('9.8.1 10.2.4 10.5.0 10.8.2 10.9.0');
export const RUST_VERSIONS = words('1.74.1 1.75.0 1.77.2 1.79.0 1.80.1 1.82.0');
export const JAVA_VERSIONS = words('11.0.22 17.0.10 17.0.12 21.0.2 21.0.4');
export const MAVEN_VERSIONS = words('3.8.8 3.9.4 3.9.6 3.9.8');
