package io.kvd.it;

import io.kvd.it.support.ServerLogsOnFailure;
import io.kvd.it.support.SharedKvd;
import io.kvd.it.support.Tools;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * redis-py (Debian's python3-redis) through kvd: {@code src/test/python/redis_py_client.py} does
 * set/get, a pipeline, scan_iter and expire, and exits 0 when every check holds.
 */
@ExtendWith(ServerLogsOnFailure.class)
class RedisPyTest {
    /**
     * Debian's interpreter, where python3-redis installs the module; the python3 first on PATH
     * may be another one (pyenv) without it.
     */
    private static final String PYTHON = "/usr/bin/python3";
    private static final Path SCRIPT = Path.of("src", "test", "python", "redis_py_client.py").toAbsolutePath();
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @RegisterExtension
    static final SharedKvd kvd = new SharedKvd();

    @Test
    void setGetPipelineScanIterAndExpireWork() {
        Tools.Result probe = Tools.run(TIMEOUT, null, PYTHON, "-c", "import redis");
        assumeTrue(probe.exitCode() == 0, () -> "redis-py is not installed for " + PYTHON
                + " (apt-get install python3-redis; .ci/run does it): " + probe.stderr().strip());

        Tools.Result result = Tools.run(TIMEOUT, null, PYTHON, SCRIPT.toString(), String.valueOf(kvd.port()));

        assertThat(result.exitCode()).as("%s", result).isZero();
        assertThat(result.stdout()).as("%s", result).contains("all checks passed");
    }
}
