package dev.dictum.app.text;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.app.settings.InsertionSettings;
import dev.dictum.app.settings.Replacement;
import java.util.List;
import org.junit.jupiter.api.Test;

class TextRulesTest {
    private static InsertionSettings rules(boolean voiceCommands, Replacement... rs) {
        return InsertionSettings.defaults().withReplacements(List.of(rs)).withVoiceCommands(voiceCommands);
    }

    @Test
    void wholeWordRulesIgnoreCaseAndLeaveLongerWordsAlone() {
        InsertionSettings s = rules(false, new Replacement("dictum", "Dictum", true), new Replacement("teh", "the", true));
        assertThat(TextRules.apply(s, "DICTUM and dictums: teh end, tehran.")).isEqualTo("Dictum and dictums: the end, tehran.");
        assertThat(TextRules.apply(rules(false, new Replacement("grüße", "Grüße", true)), "viele grüße, grüßen"))
                .isEqualTo("viele Grüße, grüßen");
    }

    @Test
    void literalRulesReplaceTheExactCharactersAnywhere() {
        InsertionSettings s = rules(false, new Replacement("colour", "color", false));
        assertThat(TextRules.apply(s, "colours and Colour")).isEqualTo("colors and Colour");
        assertThat(TextRules.apply(rules(false, new Replacement("$1", "\\", false)), "costs $1"))
                .as("replacement text is not a regex").isEqualTo("costs \\");
    }

    @Test
    void rulesRunInTheirOrder() {
        InsertionSettings s = rules(false, new Replacement("a", "b", true), new Replacement("b", "c", true));
        assertThat(TextRules.apply(s, "a b")).isEqualTo("c c");
    }

    @Test
    void voiceCommandsBecomeLineBreaksAndCommas() {
        InsertionSettings on = rules(true);
        assertThat(TextRules.apply(on, "Dear Anna, new paragraph. Thanks for the file. New line. Bye"))
                .isEqualTo("Dear Anna,\n\nThanks for the file.\nBye");
        assertThat(TextRules.apply(on, "apples comma pears, comma, and plums")).isEqualTo("apples, pears, and plums");
        assertThat(TextRules.apply(on, "the newline character and commas")).isEqualTo("the newline character and commas");
    }

    @Test
    void voiceCommandsCanBeSwitchedOffAndUserRulesComeFirst() {
        assertThat(TextRules.apply(rules(false), "apples comma pears")).isEqualTo("apples comma pears");
        InsertionSettings mine = rules(true, new Replacement("comma", "Komma", true));
        assertThat(TextRules.apply(mine, "ein comma hier")).isEqualTo("ein Komma hier");
        assertThat(InsertionSettings.defaults().voiceCommands()).isTrue();
    }
}
