export {
  detectTrajectoryFormat,
  importTrajectories,
  importTrajectory,
  TRAJECTORY_IMPORTERS,
  type TrajectoryFormat,
} from './import-trajectory.js';
export { toolCallDecision } from './turn-builder.js';
