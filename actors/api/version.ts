// The version every orchsim component reports: the API server's `/version` and each command's
// `--version`. kubectl on this machine dispatches to kubectl.1.<minor>: 32 is the client the
// tests drive.
export const VERSION_INFO = {
  major: '1',
  minor: '32',
  gitVersion: 'v1.32.0-orchsim',
  gitCommit: '0000000000000000000000000000000000000000',
  gitTreeState: 'clean',
  buildDate: '2026-01-01T00:00:00Z',
  goVersion: 'go1.23.0',
  compiler: 'gc',
  platform: 'linux/amd64',
};
