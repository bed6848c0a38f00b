package dev.dictum.whisper.format.hf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dictum.gpu.DType;
import dev.dictum.gpu.HostTensor;
import dev.dictum.whisper.format.ModelFormatException;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SafetensorsFileTest {
    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    @TempDir
    Path tmp;

    private Path write(byte[] bytes) throws IOException {
        Path f = tmp.resolve("t.safetensors");
        Files.write(f, bytes);
        return f;
    }

    /** Opens the file and reads every tensor, as a loader would. */
    private static void openAndReadAll(Path f) {
        try (Arena arena = Arena.ofConfined()) {
            SafetensorsFile s = SafetensorsFile.open(f, arena);
            for (String n : s.names()) {
                s.tensor(n);
            }
        }
    }

    private AbstractThrowableAssert<?, ? extends Throwable> rejects(String header, int dataBytes) throws IOException {
        return rejects(RawSafetensors.of(header, dataBytes));
    }

    private AbstractThrowableAssert<?, ? extends Throwable> rejects(byte[] bytes) throws IOException {
        Path f = write(bytes);
        return assertThatThrownBy(() -> openAndReadAll(f)).isInstanceOf(ModelFormatException.class)
                .hasMessageStartingWith(f.toString() + ": ").hasMessageNotContaining("\n");
    }

    @Test
    void readsTensorsAsSlicesOfTheFile() throws IOException {
        String header = "{\"__metadata__\":{\"format\":\"pt\"},"
                + "\"a\":{\"dtype\":\"F32\",\"shape\":[2,2],\"data_offsets\":[0,16]},"
                + "\"b\":{\"dtype\":\"F16\",\"shape\":[3],\"data_offsets\":[16,22]},"
                + "\"c\":{\"dtype\":\"BF16\",\"shape\":[1],\"data_offsets\":[22,24]}}  ";
        byte[] bytes = RawSafetensors.of(header, 24);
        java.nio.ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putFloat(8 + header.length(), 1.5f);
        Path f = write(bytes);
        try (Arena arena = Arena.ofConfined()) {
            SafetensorsFile s = SafetensorsFile.open(f, arena);
            assertThat(s.names()).containsExactly("a", "b", "c");
            HostTensor a = s.tensor("a");
            assertThat(a.dtype()).isEqualTo(DType.F32);
            assertThat(a.shape()).containsExactly(2, 2);
            assertThat(a.data().get(F32, 0)).isEqualTo(1.5f);
            assertThat(a.data().isMapped()).isTrue();
            HostTensor b = s.tensor("b");
            assertThat(b.dtype()).isEqualTo(DType.F16);
            assertThat(b.data().byteSize()).isEqualTo(6);
            assertThat(b.data().get(ValueLayout.JAVA_BYTE, 0)).isEqualTo((byte) 16);
            assertThat(s.tensor("c").dtype()).isEqualTo(DType.BF16);
            assertThatThrownBy(() -> s.tensor("d")).isInstanceOf(ModelFormatException.class)
                    .hasMessageEndingWith("missing tensor d");
        }
    }

    @Test
    void missingFile() {
        Path f = tmp.resolve("absent.safetensors");
        assertThatThrownBy(() -> openAndReadAll(f)).isInstanceOf(ModelFormatException.class)
                .hasMessage(f + ": no such file");
    }

    @Test
    void truncatedFiles() throws IOException {
        rejects(new byte[0]).hasMessageContaining("truncated");
        rejects(new byte[] {1, 0, 0}).hasMessageContaining("truncated");
        byte[] good = RawSafetensors.of("{\"a\":{\"dtype\":\"F32\",\"shape\":[4],\"data_offsets\":[0,16]}}", 16);
        rejects(java.util.Arrays.copyOf(good, good.length - 1)).hasMessageContaining("beyond the end of the data");
        rejects(java.util.Arrays.copyOf(good, 20)).hasMessageContaining("larger than the file");
    }

    @Test
    void headerLengthLargerThanTheFile() throws IOException {
        byte[] json = "{}".getBytes(StandardCharsets.UTF_8);
        rejects(RawSafetensors.withLength(1000, json, 0)).hasMessageContaining("header length 1000 is larger");
        rejects(RawSafetensors.withLength(-1, json, 0)).hasMessageContaining("18446744073709551615");
        rejects(RawSafetensors.withLength(Long.MAX_VALUE, json, 0)).hasMessageContaining("larger than the file");
    }

    @Test
    void offsetsOutOfRangeOrReversed() throws IOException {
        rejects("{\"a\":{\"dtype\":\"F32\",\"shape\":[4],\"data_offsets\":[16,32]}}", 16)
                .hasMessageContaining("beyond the end of the data (16 bytes)");
        rejects("{\"a\":{\"dtype\":\"F32\",\"shape\":[0],\"data_offsets\":[8,0]}}", 16)
                .hasMessageContaining("end before they begin");
        rejects("{\"a\":{\"dtype\":\"F32\",\"shape\":[4],\"data_offsets\":[-16,0]}}", 16)
                .hasMessageContaining("non-negative");
        rejects("{\"a\":{\"dtype\":\"F32\",\"shape\":[4],\"data_offsets\":[0]}}", 16)
                .hasMessageContaining("expected 2");
        rejects("{\"a\":{\"dtype\":\"F32\",\"shape\":[4],\"data_offsets\":[0,99999999999999999999999]}}", 16)
                .hasMessageContaining("non-negative integer");
    }

    @Test
    void unsupportedDtypesAreNamed() throws IOException {
        rejects("{\"ids\":{\"dtype\":\"I64\",\"shape\":[2],\"data_offsets\":[0,16]}}", 16)
                .hasMessageContaining("'ids'").hasMessageContaining("dtype I64");
        rejects("{\"w\":{\"dtype\":\"F8_E4M3\",\"shape\":[16],\"data_offsets\":[0,16]}}", 16)
                .hasMessageContaining("'w'").hasMessageContaining("dtype F8_E4M3");
        rejects("{\"w\":{\"shape\":[16],\"data_offsets\":[0,16]}}", 16).hasMessageContaining("no dtype");
    }

    @Test
    void shapeMustMatchTheByteCount() throws IOException {
        rejects("{\"a\":{\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[0,16]}}", 16)
                .hasMessageContaining("needs 12 bytes").hasMessageContaining("give 16");
        rejects("{\"a\":{\"dtype\":\"F16\",\"shape\":[-4],\"data_offsets\":[0,8]}}", 16)
                .hasMessageContaining("non-negative");
        rejects("{\"a\":{\"dtype\":\"F32\",\"shape\":[4294967296,4294967296],\"data_offsets\":[0,16]}}", 16)
                .hasMessageContaining("too large");
        rejects("{\"a\":{\"dtype\":\"F32\",\"shape\":[2.5],\"data_offsets\":[0,16]}}", 16)
                .hasMessageContaining("non-negative integer");
        rejects("{\"a\":{\"dtype\":\"F32\",\"shape\":[0],\"data_offsets\":[0,0]}}", 16)
                .hasMessageContaining("no elements");
    }

    @Test
    void corruptJson() throws IOException {
        rejects("{\"a\":{\"dtype\":\"F32\",", 16).hasMessageContaining("not valid JSON");
        rejects("[1,2,3]", 0).hasMessageContaining("not a JSON object");
        rejects("{} {}", 0).hasMessageContaining("not valid JSON");
        rejects("{\"a\":1}", 0).hasMessageContaining("not described by a JSON object");
        rejects("{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]},"
                + "\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}}", 4)
                .hasMessageContaining("not valid JSON");
        rejects(RawSafetensors.of("{\"\u0001\":1}", 0)).hasMessageContaining("not valid JSON");
        byte[] badUtf8 = {'{', '"', (byte) 0xC3, '"', ':', '1', '}'};
        rejects(RawSafetensors.withLength(badUtf8.length, badUtf8, 0)).hasMessageContaining("not valid JSON");
    }

    @Test
    void emptyHeaderObjectIsAnEmptyFile() throws IOException {
        Path f = write(RawSafetensors.of("{\"__metadata__\":{}}", 0));
        try (Arena arena = Arena.ofConfined()) {
            assertThat(SafetensorsFile.open(f, arena).names()).isEmpty();
        }
    }
}
