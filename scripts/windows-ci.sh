#!/usr/bin/env bash
# CI for the settings, model manager, history and first-run windows (issue 7): the JavaFX settings test
# on a real (virtual) display, then every window drawn once by scripts/screenshots-desktop.sh into a
# scratch folder, so a window that throws while it is built fails CI. Display :94 (e2e uses its own).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/java-env.sh
command -v Xvfb >/dev/null || { apt-get update -qq && apt-get install -y -qq xvfb xauth libgtk-3-0 libgl1 fonts-dejavu-core; }
Xvfb :94 -screen 0 1280x800x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
home=$(mktemp -d)
shots=$(mktemp -d)
trap 'kill $xvfb 2>/dev/null || true; rm -rf "$home" "$shots"' EXIT
sleep 1
DISPLAY=:94 HOME=$home mvn -q -B -pl app -am test -Dtest='SettingsWindowTest,WindowsCloseTest' -Dsurefire.failIfNoSpecifiedTests=false
grep -q 'Tests run: 2, Failures: 0, Errors: 0, Skipped: 0' app/target/surefire-reports/dev.dictum.app.ui.SettingsWindowTest.txt \
  || { echo "windows-ci: the settings window test did not run on the display" >&2; exit 1; }
grep -q 'Tests run: 1, Failures: 0, Errors: 0, Skipped: 0' app/target/surefire-reports/dev.dictum.app.ui.WindowsCloseTest.txt \
  || { echo "windows-ci: the Escape/Close test did not run on the display" >&2; exit 1; }
DICTUM_SHOTS_DISPLAY=:94 scripts/screenshots-desktop.sh "$shots"
n=$(ls "$shots"/*.png | wc -l)
[ "$n" -ge 13 ] || { echo "windows-ci: only $n screenshots were drawn" >&2; exit 1; }
echo "windows-ci: settings window test passed on a display; $n window screenshots drawn"
