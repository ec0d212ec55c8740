# lib.sh: the capture tests source tests/lib.sh directly. This file stays
# for launcher/test_launcher.sh, which sources it; it adds nothing.
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
