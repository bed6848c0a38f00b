package dev.dictum.app.models.download;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dictum.app.models.download.DownloadFailure.Reason;
import java.net.ServerSocket;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.nio.channels.UnresolvedAddressException;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A failed download says why in words (only 127.0.0.1 is contacted). */
class DownloadReasonsTest {
    @TempDir
    Path models;

    @Test
    void nothingListeningSaysTheServerRefusedAndKeepsWhatItHas() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort(); // closed again: connecting to it is refused
        }
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        try (ModelDownloader d = new ModelDownloader(client, URI.create("http://127.0.0.1:" + port + "/"),
                new FileFetcher.Options(2, Duration.ofMillis(10), Duration.ofSeconds(5)), PartWriter.FILES)) {
            DownloadTask t = d.start(ModelDownloaderTest.ggml("ggml-tiny.bin", 1000, null), models, p -> { });
            DownloadFailure f = ModelDownloaderTest.failureOf(t);
            assertThat(f.reason()).isEqualTo(Reason.NETWORK);
            assertThat(f.getMessage()).containsAnyOf("the server refused the connection", "could not connect to the server").doesNotContain("ConnectException")
                    .doesNotContain("\n");
            assertThat(f.resumable()).isTrue();
        }
    }

    @Test
    void eachNetworkFailureHasItsOwnWords() {
        assertThat(FileFetcher.networkReason(new java.io.IOException("connect failed",
                new UnresolvedAddressException()))).contains("(DNS)");
        assertThat(FileFetcher.networkReason(new UnknownHostException("huggingface.co"))).contains("(DNS)");
        assertThat(FileFetcher.networkReason(new java.net.ConnectException("Network is unreachable")))
                .isEqualTo("no network connection");
        assertThat(FileFetcher.networkReason(new java.net.http.HttpConnectTimeoutException("HTTP connect timed out")))
                .isEqualTo("the server did not answer in time");
    }
}
