package io.kvd.it.support;

import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

import java.util.List;

/**
 * Prints, when a test fails, the log of every server that is still running or that the test
 * started (and perhaps already stopped), so a failure comes with what the server said.
 */
public final class ServerLogsOnFailure implements BeforeEachCallback, TestWatcher {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(ServerLogsOnFailure.class);

    @Override
    public void beforeEach(ExtensionContext context) {
        context.getStore(NAMESPACE).put("startedBefore", LoggedProcess.STARTED.size());
    }

    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
        Integer startedBefore = context.getStore(NAMESPACE).get("startedBefore", Integer.class);
        List<LoggedProcess> started = LoggedProcess.STARTED;
        for (int i = 0; i < started.size(); i++) {
            LoggedProcess p = started.get(i);
            if (p.isAlive() || startedBefore == null || i >= startedBefore) {
                System.out.println("[" + context.getDisplayName() + " failed] " + p.describe());
            }
        }
    }
}
