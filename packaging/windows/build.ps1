# Builds Dictum's Windows app image and MSI into packaging\target\ (run on Windows; see README.md here).
#   packaging\target\runtime\          jlink runtime (the JDK modules Dictum uses)
#   packaging\target\image\Dictum\     app image: Dictum.exe (tray app, no console) and dictum.exe (CLI)
#   packaging\target\Dictum-VERSION.msi
# Needs: JDK 25 (JAVA_HOME), Maven 3.8+, WiX Toolset (3.14, or 4/5 with the JDK 25 jpackage) on PATH.
# The HIP SDK 6.2 is NOT bundled: Dictum finds it at run time (see README.md, "AMD GPUs").
param([switch]$NoBuild, [switch]$NoMsi)
$ErrorActionPreference = 'Stop'
Set-Location (Join-Path $PSScriptRoot '..\..')
if (-not $env:JAVA_HOME) { throw 'Set JAVA_HOME to a JDK 25' }
$jdk = Join-Path $env:JAVA_HOME 'bin'
$out = 'packaging\target'

if (-not $NoBuild) { mvn -q -B -pl app -am -DskipTests package; if ($LASTEXITCODE) { throw 'mvn failed' } }
$jar = Get-ChildItem app\target\dictum-app-*.jar | Where-Object { $_.Name -notmatch 'sources|tests' } | Select-Object -First 1
$version = ($jar.BaseName -replace '^dictum-app-', '') -replace '-.*$', ''

Remove-Item -Recurse -Force $out -ErrorAction SilentlyContinue
New-Item -ItemType Directory "$out\input" | Out-Null
Copy-Item $jar.FullName "$out\input\dictum-app.jar"
Copy-Item app\target\lib\*.jar "$out\input\"

# The same module list as packaging/build.sh (jdeps misses what is loaded reflectively).
$modules = 'java.base,java.desktop,java.logging,java.management,java.naming,java.net.http,java.sql,java.xml,' +
           'jdk.crypto.ec,jdk.incubator.vector,jdk.management,jdk.unsupported,jdk.zipfs,jdk.localedata'
& "$jdk\jlink" --add-modules $modules --strip-debug --no-header-files --no-man-pages --compress zip-6 `
    --output "$out\runtime"
if ($LASTEXITCODE) { throw 'jlink failed' }

# The JVM options shared with ./dictum and packaging/build.sh (why each: comments in that file).
# TrimNativeHeapInterval is glibc's (Windows' heap needs no trim, and the JVM would warn on the console).
$javaOptions = @(Get-Content packaging\jvm-options | Where-Object { $_.Trim() -and -not $_.Trim().StartsWith('#') -and
    -not $_.StartsWith('-XX:TrimNativeHeapInterval') })
$jpOptions = @()
foreach ($o in $javaOptions) { $jpOptions += @('--java-options', $o) }

# Dictum.exe starts the tray app (no console window); dictum.exe is the command line (with a console).
& "$jdk\jpackage" --type app-image --name Dictum --app-version $version --vendor Dictum `
    --input "$out\input" --main-jar dictum-app.jar --main-class dev.dictum.app.cli.DictumCli `
    --arguments app --runtime-image "$out\runtime" @jpOptions `
    --icon packaging\windows\dictum.ico `
    --add-launcher dictum=packaging\windows\dictum-cli.properties --dest "$out\image"
if ($LASTEXITCODE) { throw 'jpackage app-image failed' }

if (-not $NoMsi) {
    # A fixed upgrade code: a newer MSI replaces an older one instead of installing beside it.
    & "$jdk\jpackage" --type msi --app-image "$out\image\Dictum" --name Dictum --app-version $version `
        --vendor Dictum --description 'Local push-to-talk dictation with Whisper' `
        --win-menu --win-menu-group Dictum --win-shortcut --win-dir-chooser `
        --win-upgrade-uuid 3f6c2a0e-8d52-4b7a-9c1e-5d0b7a1e2f41 --dest $out
    if ($LASTEXITCODE) { throw 'jpackage msi failed' }
}
Remove-Item -Recurse -Force "$out\input"
Get-ChildItem $out
