#!/usr/bin/env bash
# Builds Dictum's installers into packaging/target/:
#   runtime/          a jlink runtime with only the JDK modules Dictum uses
#   image/dictum/     a jpackage app image (bin/dictum launcher, lib/app jars, lib/runtime)
#   dictum_VERSION_amd64.deb   (Linux) /opt/dictum, `dictum` on the PATH, a desktop menu entry and icon
#
# Usage: packaging/build.sh [--no-build] [--no-deb] [--no-aot]
#   --no-build  reuse app/target (after `mvn -pl app -am package`)
#   --no-deb    stop after the app image
#   --no-aot    leave out the JDK 25 AOT cache (lib/app/dictum.aot, from a training run that transcribes
#               two toy samples); docs/benchmarks.md has what it saves
# Needs JDK 25; the .deb also needs fakeroot, binutils and dpkg-dev (jpackage's deb tooling).
# Windows: packaging/windows/build.ps1 (MSI through WiX).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/java-env.sh

build=1 deb=1 aot=1
for arg in "$@"; do
  case "$arg" in
    --no-build) build=0 ;;
    --no-deb) deb=0 ;;
    --no-aot) aot=0 ;;
    *) echo "packaging/build.sh: unknown option $arg (use --no-build, --no-deb, --no-aot)" >&2; exit 2 ;;
  esac
done

out=packaging/target
step() { printf '%s [%3ds] %s\n' "build.sh" "$SECONDS" "$*"; }

if [ "$build" = 1 ]; then
  step "building the app (mvn package, no tests)"
  mvn -q -B -pl app -am -DskipTests package
fi
jar=$(ls app/target/dictum-app-*.jar | grep -v -- '-sources\|-tests' | head -1)
[ -f "$jar" ] || { echo "packaging/build.sh: no app jar in app/target; run without --no-build" >&2; exit 2; }
# jpackage wants a numeric version: 0.1.0-SNAPSHOT -> 0.1.0
version=$(basename "$jar" .jar | sed -e 's/^dictum-app-//' -e 's/-.*//')

rm -rf "$out"
mkdir -p "$out/input"
cp "$jar" "$out/input/dictum-app.jar"
cp app/target/lib/*.jar "$out/input/"

step "finding the JDK modules the jars use (jdeps)"
found=$(jdeps --multi-release 25 --ignore-missing-deps --print-module-deps --class-path "$out/input/*" \
        "$out/input/dictum-app.jar" 2>/dev/null || true)
# Always: the Vector API (the engine), HTTPS with elliptic curves (model downloads), the management
# beans (memory for the model recommendation), sun.misc.Unsafe users (JNA, JavaFX), SQL (history),
# the desktop (tray, clipboard, sound), JFR-free logging. jdeps misses what is loaded reflectively.
modules="java.base,java.desktop,java.logging,java.management,java.naming,java.net.http,java.sql,java.xml,jdk.crypto.ec,jdk.incubator.vector,jdk.management,jdk.unsupported,jdk.zipfs,jdk.localedata${found:+,$found}"
modules=$(echo "$modules" | tr ',' '\n' | sort -u | paste -sd, -)
step "jlink runtime: $modules"
jlink --add-modules "$modules" --generate-cds-archive --strip-debug --no-header-files --no-man-pages --compress zip-6 \
      --include-locales en,de,fr,es,it,pt,nl,pl,ru,uk,ja,zh,ko --output "$out/runtime"

# -Xlog:all=warning:stderr: the JVM's own warnings (an AOT cache it cannot use, say) go to stderr, never
# into a transcript on stdout.
# The rest: packaging/jvm-options, which ./dictum reads too.
mapfile -t java_options < <(grep -v '^[[:space:]]*\(#\|$\)' packaging/jvm-options)
java_options+=(-Xlog:all=warning:stderr)
jp_opts=()
for o in "${java_options[@]}"; do jp_opts+=(--java-options "$o"); done

step "jpackage app image"
jpackage --type app-image --name dictum --app-version "$version" --vendor "Dictum" \
         --description "Local push-to-talk dictation with Whisper" \
         --input "$out/input" --main-jar dictum-app.jar --main-class dev.dictum.app.cli.DictumCli \
         --runtime-image "$out/runtime" "${jp_opts[@]}" --icon packaging/linux/dev.dictum.Dictum.png \
         --dest "$out/image"
image="$out/image/dictum"

# JNativeHook extracts its native library next to its jar on first use unless it is there already. In
# /opt/dictum that folder is not the user's to write (hotkeys would fail) and a file dpkg does not own
# would stay after removal, so the library ships there, extracted at build time.
jnh=$(ls "$image"/lib/app/jnativehook-*.jar 2>/dev/null | head -1 || true)
if [ -n "$jnh" ] && [ "$(uname -m)" = x86_64 ]; then
  jnh_version=$(basename "$jnh" .jar | sed 's/^jnativehook-//')
  jnh_abs=$(realpath "$jnh")
  tmp=$(mktemp -d)
  (cd "$tmp" && jar xf "$jnh_abs" com/github/kwhat/jnativehook/lib/linux/x86_64/libJNativeHook.so)
  cp "$tmp/com/github/kwhat/jnativehook/lib/linux/x86_64/libJNativeHook.so" "$image/lib/app/libJNativeHook-$jnh_version.x86_64.so"
  rm -rf "$tmp"
fi

# One modification time for every file of the image, kept through the .deb: the AOT cache checks each
# jar's time and size, and the time is the last commit's, so a rebuild of one commit is reproducible.
epoch=$(git log -1 --format=%ct 2>/dev/null || echo 1700000000)
find "$image" -exec touch -h -d "@$epoch" {} +

if [ "$aot" = 1 ]; then
  step "AOT cache: training run (scripts/aot-cache.sh: the app on a headless desktop, or transcribing two toy samples)"
  # The launcher's JVM options come from lib/app/dictum.cfg; the training run adds the output flag
  # through JAVA_TOOL_OPTIONS (the jpackage launcher ignores JDK_JAVA_OPTIONS). The cache records the
  # image's class path and is relocated by the JVM when the image is installed elsewhere (/opt/dictum).
  scripts/aot-cache.sh --launcher "$image/bin/dictum" --out "$image/lib/app/dictum.aot" >"$out/aot-training.log" 2>&1 \
    || { cat "$out/aot-training.log" >&2; exit 1; }
  rm -f "$image/lib/app/training.log"
  [ -f "$image/lib/app/dictum.aot" ] || { echo "packaging/build.sh: the AOT training run made no cache" >&2; exit 1; }
  printf 'java-options=-XX:AOTCache=$APPDIR/dictum.aot\n' >> "$image/lib/app/dictum.cfg"
fi

step "app image: $(du -sh "$image" | cut -f1) in $image"

if [ "$deb" = 1 ] && [ "$(uname -s)" = Linux ]; then
  for tool in fakeroot dpkg-deb objdump; do
    command -v "$tool" >/dev/null || { echo "packaging/build.sh: the .deb needs $tool (apt-get install fakeroot binutils dpkg-dev)" >&2; exit 2; }
  done
  # jpackage finds the JDK runtime's libraries; these are what JavaFX (GTK 3), JNativeHook (X11 record/
  # keyboard) and the X11 typing mode load from jars at run time, which it cannot see.
  desktop_deps="libgtk-3-0, libglib2.0-0, libgl1, libxtst6, libxt6, libxinerama1, libxkbcommon-x11-0, libx11-xcb1"
  step "jpackage .deb (no --linux-shortcut: that pulls in xdg-utils, which fails in containers)"
  jpackage --type deb --app-image "$image" --name dictum --app-version "$version" --vendor "Dictum" \
           --description "Local push-to-talk dictation with Whisper" \
           --linux-package-name dictum --linux-deb-maintainer "dictum@localhost" --linux-app-category utils \
           --linux-package-deps "$desktop_deps" \
           --dest "$out/deb-jpackage"
  step "adding /usr/bin/dictum, the desktop menu entry and the icon to the package"
  # Shipped as files of the package (not written by a postinst script), so dpkg owns them and
  # `dpkg -r` removes them; no xdg-utils involved.
  work="$out/deb-root"
  dpkg-deb -R "$out"/deb-jpackage/dictum_*.deb "$work"
  install -D -m 0755 packaging/linux/dictum "$work/usr/bin/dictum"
  install -D -m 0644 packaging/linux/dev.dictum.Dictum.desktop "$work/usr/share/applications/dev.dictum.Dictum.desktop"
  install -D -m 0644 packaging/linux/dev.dictum.Dictum.svg "$work/usr/share/icons/hicolor/scalable/apps/dev.dictum.Dictum.svg"
  install -D -m 0644 packaging/linux/dev.dictum.Dictum.png "$work/usr/share/icons/hicolor/256x256/apps/dev.dictum.Dictum.png"
  find "$work/opt" -exec touch -h -d "@$epoch" {} +
  size=$(du -sk --exclude=DEBIAN "$work" | cut -f1)
  sed -i "s/^Installed-Size:.*/Installed-Size: $size/" "$work/DEBIAN/control"
  (cd "$work" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | xargs -0 md5sum > DEBIAN/md5sums)
  fakeroot dpkg-deb -Zgzip -z6 --build "$work" "$out/dictum_${version}_amd64.deb" >/dev/null
  rm -rf "$work" "$out/deb-jpackage"
  step "package: $(du -h "$out/dictum_${version}_amd64.deb" | cut -f1) $out/dictum_${version}_amd64.deb"
fi
rm -rf "$out/input"
step "done"
