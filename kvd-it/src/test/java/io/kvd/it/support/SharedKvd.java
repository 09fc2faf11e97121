package io.kvd.it.support;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One kvd process for all the tests of a class: {@code @RegisterExtension static final SharedKvd kvd
 * = new SharedKvd();} starts it before the first test and stops it (requiring exit code 0) after the last.
 */
public final class SharedKvd implements BeforeAllCallback, AfterAllCallback {
    private final String[] options;
    private KvdProcess process;

    /** kvd with {@code options} ({@code "--name", "value"} pairs) after the defaults of {@link KvdProcess#start}. */
    public SharedKvd(String... options) {
        this.options = options;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        process = KvdProcess.start(options);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        process.close();
    }

    public int port() {
        return process.port();
    }

    public long pid() {
        return process.pid();
    }
}
