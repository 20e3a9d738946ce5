# Sourced by scripts/setup and scripts/test: the repository root and Swift on PATH.
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if ! command -v swift >/dev/null && [[ -x /opt/swift/usr/bin/swift ]]; then
    PATH=/opt/swift/usr/bin:$PATH
fi
export PATH REPO
