package io.kvd.server.config;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;

/** I/O failures named as C's strerror names them, as Redis's replies and logs show them. */
public final class IoErrors {
    private IoErrors() {
    }

    /** strerror's text for the failure ({@code Permission denied}, {@code No such file or directory}, ...). */
    public static String strerror(IOException e) {
        if (e instanceof AccessDeniedException) {
            return "Permission denied";
        } else if (e instanceof NoSuchFileException) {
            return "No such file or directory";
        } else if (e instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason();
        }
        return e.getMessage();
    }
}
