#!/usr/bin/env bash
# Screenshots of the settings (each group, and Hotkeys at 200 %), model manager (a download running from
# a local test hub on 127.0.0.1), history and first-run windows, taken under Xvfb into docs/screenshots/
# (or the folder given). A sibling of scripts/e2e-desktop.sh; uses display :91 so both can run at once.
# Usage: scripts/screenshots-desktop.sh [OUT_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/java-env.sh
out=$(realpath -m "${1:-docs/screenshots}")
display=${DICTUM_SHOTS_DISPLAY:-:91}
command -v Xvfb >/dev/null || { apt-get update -qq && apt-get install -y -qq xvfb xauth libgtk-3-0 libgl1 fonts-dejavu-core; }

mvn -q -B -pl app -am -DskipTests test-compile dependency:build-classpath -Dmdep.includeScope=test \
    -Dmdep.outputFile="$PWD/app/target/test-classpath.txt"
cp="$PWD/app/target/test-classes:$PWD/app/target/classes:$(cat app/target/test-classpath.txt)"

xvfb=
if ! DISPLAY=$display xdpyinfo >/dev/null 2>&1 && [ ! -e "/tmp/.X11-unix/X${display#:}" ]; then
  Xvfb "$display" -screen 0 1600x1000x24 -nolisten tcp >/dev/null 2>&1 &
  xvfb=$!
  trap 'kill $xvfb 2>/dev/null || true' EXIT
  sleep 1
fi
home=$(mktemp -d)   # JavaFX unpacks its natives into ~/.openjfx
DISPLAY=$display HOME=$home "$JAVA_HOME/bin/java" --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED \
  -Dprism.order=sw -Dprism.lcdtext=false -Ddictum.testdata="$PWD/testdata" -cp "$cp" \
  dev.dictum.app.ui.WindowScreenshots "$out" 2> >(grep -v 'Using incubator modules\|Unsupported JavaFX configuration' >&2)
rm -rf "$home"
# The recording indicator and its notices (AWT, no JavaFX).
DISPLAY=$display "$JAVA_HOME/bin/java" -cp "$cp" dev.dictum.app.ui.IndicatorScreenshots "$out" \
  2> >(grep -v 'Using incubator modules' >&2)
