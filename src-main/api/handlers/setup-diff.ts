// The line diff moved beside the agent writers (issue 23 §2); kept here for the Claude Code writer.
export { diffLines } from '../../setup/diff-lines';
