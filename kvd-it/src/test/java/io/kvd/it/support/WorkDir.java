package io.kvd.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Fresh directories for servers and tools, under the build directory ({@code kvd.it.work}) rather
 * than /tmp, so that the logs of a failed run stay where the build left them until {@code mvn clean}.
 */
public final class WorkDir {
    private WorkDir() {
    }

    public static Path create(String prefix) {
        try {
            Path base = Path.of(System.getProperty("kvd.it.work", "target/it-work"));
            Files.createDirectories(base);
            return Files.createTempDirectory(base, prefix + "-").toAbsolutePath();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
