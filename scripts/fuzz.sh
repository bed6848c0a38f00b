#!/usr/bin/env bash
# Runs one Jazzer fuzz test (a JUnit @FuzzTest) in fuzzing mode for a fixed time.
#
#   scripts/fuzz.sh MODULE TESTCLASS DURATION
#   scripts/fuzz.sh audio WavReaderFuzzTest 10m
#   scripts/fuzz.sh whisper-model SomeFuzzTest#someMethod 1h
#
# DURATION: Jazzer's format (30s, 10m, 1h, 1h30m) or plain seconds. It overrides the test's
# @FuzzTest(maxDuration) through Jazzer's max_duration option (JAZZER_MAX_DURATION), which needs
# jazzer-junit >= 0.30.0; older Jazzer also cannot instrument Java 25 classes (see audio/pom.xml).
#
# The growing corpus is kept in MODULE/.cifuzz-corpus/ between runs; a crashing input is written
# next to the seeds in src/test/resources/<package>/<Class>Inputs/<method>/, where plain `mvn test`
# then replays it as a regression test. Only one @FuzzTest may run per invocation, so name a
# method (Class#method) if the class has several.
set -euo pipefail

if [[ $# -ne 3 ]]; then
  awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0" >&2
  exit 2
fi
module=$1
test_class=$2
duration=$3

if [[ $duration =~ ^[0-9]+$ ]]; then
  duration="${duration}s"
elif [[ ! $duration =~ ^([0-9]+[hms])+$ ]]; then
  echo "fuzz.sh: DURATION must look like 90, 30s, 10m, 1h or 1h30m (got '$duration')" >&2
  exit 2
fi

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [[ ! -f $root/$module/pom.xml ]]; then
  echo "fuzz.sh: no module '$module' under $root" >&2
  exit 2
fi

# The build needs JDK 25; keep a JAVA_HOME that already is one, otherwise use the team's default.
java_major() { "$1/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p'; }
if [[ -z ${JAVA_HOME:-} || ! -x ${JAVA_HOME}/bin/java || $(java_major "$JAVA_HOME") -lt 25 ]]; then
  export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64
fi

cd "$root"
echo "fuzz.sh: fuzzing $module $test_class for $duration (JAVA_HOME=$JAVA_HOME)" >&2
# -am builds the module's in-repo dependencies; the test filter keeps their tests from running.
JAZZER_FUZZ=1 JAZZER_MAX_DURATION=$duration exec mvn -B -pl "$module" -am test \
  -Dtest="$test_class" -Dsurefire.failIfNoSpecifiedTests=false
