package dev.dictum.app.cli;

import picocli.CommandLine;

/** The version from the jar manifest (the build's), or "dev" when run from classes. */
final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
        String v = DictumCli.class.getPackage().getImplementationVersion();
        return new String[] {"dictum " + (v == null ? "dev" : v) + " (Java " + Runtime.version() + ")"};
    }
}
