export {
  detectTrajectoryFormat,
  importTrajectories,
  importTrajectory,
  TRAJECTORY_IMPORTERS,
  type TrajectoryFormat,
} from './import-trajectory.js';
export { decisionText, toolCallDecision } from './turn-builder.js';
