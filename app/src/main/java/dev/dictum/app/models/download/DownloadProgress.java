package dev.dictum.app.models.download;

import java.time.Duration;

/**
 * A snapshot of a download for the progress bar.
 *
 * @param file           the file being transferred now
 * @param bytesDone      bytes on disk so far, including those kept from an earlier attempt
 * @param bytesTotal     the expected total (exact once the server stated every size; approximate before)
 * @param bytesPerSecond the recent transfer rate, 0 until measured
 * @param remaining      the estimated time left, or null while the rate is unknown
 */
public record DownloadProgress(String file, long bytesDone, long bytesTotal, double bytesPerSecond, Duration remaining) {

    /** Done as a fraction 0…1 (0 while the total is unknown). */
    public double fraction() {
        return bytesTotal <= 0 ? 0 : Math.min(1.0, bytesDone / (double) bytesTotal);
    }
}
