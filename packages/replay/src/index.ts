// Public surface of @distil/replay.
export {
  type AblationOptions,
  type AblationReport,
  ablate,
  type BlockVerdict,
  type ProgressCallback,
} from './ablation.js';
export { writeFileAtomic } from './atomic-file.js';
export {
  digestedSignatures,
  type MatchedPair,
  type Matching,
  matchRuns,
  OUTCOMES_FILE,
  pairedOutcomes,
  type RunRecord,
  readMatchedRuns,
  readRunsFolder,
  regressed,
  runEvidence,
  runFiles,
} from './certification/matched-runs.js';
export {
  type NonInferiority,
  nonInferiorityTest,
  type PairedOutcomes,
} from './certification/non-inferiority.js';
export { normalCdf, normalQuantile } from './certification/normal-distribution.js';
export {
  type Interval,
  type PairedCounts,
  tangoInterval,
  tangoScore,
} from './certification/tango-interval.js';
export {
  certifyFallback,
  type FallbackOptions,
  type FallbackPlan,
  type TurnCertificate,
} from './certified-fallback.js';
export {
  type BlockTransform,
  CompressionLadder,
  type CompressionLevel,
  LEVELS,
  pipelineTransform,
} from './compression-ladder.js';
export { decisionKey, sameDecision, sameReplay } from './decision-key.js';
export {
  applyDial,
  DEFAULT_TARGETS,
  type DialChoice,
  type DialPoint,
  divergenceBudget,
  frontier,
  sumFrontiers,
} from './equivalence-dial.js';
export { type FrontierSeries, renderFrontierSvg } from './frontier-svg.js';
export {
  DEFAULT_EXPAND_THRESHOLDS,
  ExpandFlywheel,
  ExpandStats,
  type ExpandThresholds,
  expandStatsPath,
  readExpandStats,
} from './learn/expand-flywheel.js';
export {
  DEFAULT_GUIDELINE_THRESHOLDS,
  GuidelineStats,
  type GuidelineThresholds,
  type GuidelineUpdate,
  guidelineStatsPath,
  learnFromRuns,
  type RunEvidence,
  readGuidelineStats,
} from './learn/guideline-flywheel.js';
export {
  LearnedPolicy,
  type PolicyEntry,
  type ProtectionReason,
  type ProtectionSource,
  policyCompressor,
  protects,
} from './learn/learned-policy.js';
export {
  digestedSignature,
  Signature,
  type SizeBucket,
  signatureFor,
  signatureOf,
  sizeBucket,
} from './learn/signature.js';
export { ANTHROPIC_VERSION, AnthropicRunner, DEFAULT_ANTHROPIC_MODEL } from './live/anthropic-runner.js';
export { LiveRunner, type LiveRunnerOptions } from './live/live-runner.js';
export { DEFAULT_OPENAI_MODEL, OpenAIRunner } from './live/openai-runner.js';
export { UpstreamError } from './live/post-json.js';
export { NEXT_STEP_PROMPT, renderTranscript, type Transcript } from './live/transcript.js';
export {
  type Replayed,
  type ReplayTurn,
  type Runner,
  type RunnerEvidence,
  replayTurns,
  runnerEvidence,
} from './runner.js';
export {
  RUNNER_NAMES,
  RUNNERS,
  type RunnerEntry,
  type RunnerName,
  type RunnerSettings,
  resolveRunner,
} from './runners.js';
export { copiedShape, decisionAtoms } from './structural/decision-atoms.js';
export { StructuralRunner } from './structural/structural-runner.js';
export { VisibilityIndex, visibleIn } from './structural/visibility.js';
