package dev.dictum.audio.architecture;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * audio's packages import one another one way only (issue 20, docs/architecture.md): every package
 * of dev.dictum.audio, the root included, is a slice of its own, and no two slices may depend on each other,
 * directly or around a longer circle.
 */
@AnalyzeClasses(packages = "dev.dictum.audio", importOptions = ImportOption.DoNotIncludeTests.class)
class PackageCyclesTest {
    @ArchTest
    static final ArchRule NO_PACKAGE_CYCLES = slices().matching("dev.dictum.(**)").namingSlices("$1")
            .should().beFreeOfCycles();
}
