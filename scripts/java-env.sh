# Sourced by the build and run scripts: finds a JDK 25 (the machine's default java may be older).
if [ -z "${JAVA_HOME:-}" ] || ! "$JAVA_HOME/bin/java" -version 2>&1 | grep -qE 'version "(2[5-9]|[3-9][0-9])'; then
  for candidate in /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/java-25-openjdk-amd64 /usr/lib/jvm/jdk-25*; do
    if [ -x "$candidate/bin/java" ]; then JAVA_HOME="$candidate"; break; fi
  done
fi
if [ -z "${JAVA_HOME:-}" ] || [ ! -x "$JAVA_HOME/bin/java" ]; then
  echo "Dictum needs JDK 25: install it and set JAVA_HOME" >&2
  exit 2
fi
export JAVA_HOME
export PATH="$JAVA_HOME/bin:$PATH"
# Maven itself runs on this JDK; keep its own startup warnings quiet.
export MAVEN_OPTS="${MAVEN_OPTS:-} --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow -Xmx2g"
# Debian's Maven 3.8 (through jansi) writes ESC[0m resets even with -B and -Dstyle.color=never; where
# its output is not a terminal (a log, CI, a pipe) they would land as raw "ESC[0m" text. Strip them there.
mvn() {
  if [ -t 1 ] && [ -t 2 ]; then
    command mvn "$@"
    return
  fi
  local strip=$'s/\e\\[[0-9;]*m//g'
  command mvn "$@" 2> >(sed -u "$strip" >&2) | sed -u "$strip"
  return "${PIPESTATUS[0]}"
}
