package dev.dictum.app.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.assignableTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import dev.dictum.app.dictation.Dictation;
import dev.dictum.app.dictation.SpeechEngine;

/**
 * The picture of app/ in docs/architecture.md ("Inside app/"), as rules: the core reads one way,
 * the OS sits behind ports, only the composition root picks adapters, the desktop is on top,
 * whisper-model is reached through its session façade only, and the engine's Whisper classes stay in
 * {@code app.engine}.
 */
@AnalyzeClasses(packages = "dev.dictum.app", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    private static final String APP = "dev.dictum.app..";
    private static final String PORTS = "dev.dictum.app.os";
    private static final String ROOT = "dev.dictum.app.launch..";

    /** No two packages of the app import each other, directly or round a circle. */
    @ArchTest
    static final ArchRule noPackageCycles = slices().matching("dev.dictum.app.(**)")
            .should().beFreeOfCycles();

    /** The ports ({@code app.os}) and the file utilities ({@code app.files}) need nothing else of the app. */
    @ArchTest
    static final ArchRule portsImportNothingOfTheApp = classes().that().resideInAnyPackage(PORTS, "dev.dictum.app.files")
            .should().onlyDependOnClassesThat(not(resideInAPackage(APP))
                    .or(resideInAnyPackage(PORTS, "dev.dictum.app.files")));

    @ArchTest
    static final ArchRule x11AdapterImportsOnlyThePorts = adapter("x11");

    @ArchTest
    static final ArchRule windowsAdapterImportsOnlyThePorts = adapter("windows");

    @ArchTest
    static final ArchRule linuxAdapterImportsOnlyThePorts = adapter("linux");

    /** The composition root alone names an adapter; everything else is handed the ports. */
    @ArchTest
    static final ArchRule onlyTheRootPicksAdapters = noClasses()
            .that().resideOutsideOfPackages(ROOT, "dev.dictum.app.os..")
            .should().dependOnClassesThat().resideInAnyPackage("dev.dictum.app.os.*..");

    /** The desktop is on top: nothing below it (and not the tray) imports {@code app.ui}. */
    @ArchTest
    static final ArchRule onlyTheRootImportsTheDesktop = noClasses()
            .that().resideOutsideOfPackages("dev.dictum.app.ui..", ROOT)
            .should().dependOnClassesThat().resideInAPackage("dev.dictum.app.ui..");

    /** whisper-model is reached through {@code dev.dictum.whisper.session}, never its model graph. */
    @ArchTest
    static final ArchRule noAppClassImportsTheModelGraph = noClasses().that().resideInAPackage(APP)
            .should().dependOnClassesThat().resideInAPackage("dev.dictum.whisper.model..");

    /**
     * The engine crosses into the rest of the app by three names ({@code SpeechEngine}, {@code Dictation},
     * {@code EngineManager}): its Whisper implementations stay inside {@code app.engine}.
     */
    @ArchTest
    static final ArchRule theWhisperImplementationStaysInTheEnginePackage = noClasses()
            .that().resideOutsideOfPackage("dev.dictum.app.engine")
            .should().dependOnClassesThat(resideInAPackage("dev.dictum.app.engine")
                    .and(assignableTo(SpeechEngine.class).or(assignableTo(Dictation.class))));

    /** An adapter implements ports with JNA and the JDK: it imports {@code app.os} and its own package only. */
    private static ArchRule adapter(String name) {
        String own = PORTS + "." + name + "..";
        return classes().that().resideInAPackage(own)
                .should().onlyDependOnClassesThat(not(resideInAPackage(APP)).or(resideInAnyPackage(PORTS, own)))
                .as("the " + name + " adapter imports only the ports (" + PORTS + ") and itself");
    }
}
