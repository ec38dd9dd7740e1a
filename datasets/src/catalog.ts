import { cargoTestFamily } from './families/cargo-test.js';
import { ciGithubActionsFamily } from './families/ci-github-actions.js';
import { ciTravisFamily } from './families/ci-travis.js';
import { dockerBuildFamily } from './families/docker-build.js';
import { gitDiffFamily } from './families/git-diff.js';
import { gitLogFamily } from './families/git-log.js';
import { grepFamily } from './families/grep.js';
import { jestFamily } from './families/jest.js';
import { jsonApiFamily } from './families/json-api.js';
import { kubectlDescribeFamily } from './families/kubectl-describe.js';
import { kubectlGetFamily } from './families/kubectl-get.js';
import { kubectlLogsFamily } from './families/kubectl-logs.js';
import { mavenFamily } from './families/maven.js';
import { npmInstallFamily } from './families/npm-install.js';
import { pipInstallFamily } from './families/pip-install.js';
import { pytestFamily } from './families/pytest.js';
import { sourcePyFamily, sourceTsFamily } from './families/source-files.js';
import type { Family } from './labelled-text.js';

/** Every tool-output family, in the order their files are written and labelled. */
export const FAMILIES: readonly Family[] = Object.freeze([
  pytestFamily,
  jestFamily,
  cargoTestFamily,
  mavenFamily,
  npmInstallFamily,
  pipInstallFamily,
  dockerBuildFamily,
  kubectlGetFamily,
  kubectlDescribeFamily,
  kubectlLogsFamily,
  sourceTsFamily,
  sourcePyFamily,
  gitDiffFamily,
  gitLogFamily,
  grepFamily,
  jsonApiFamily,
  ciGithubActionsFamily,
  ciTravisFamily,
]);
