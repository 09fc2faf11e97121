package io.kvd.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code suite --quick} (about 1.5 minutes on 2 cores) against kvd.jar (built before this module in the reactor; the pom passes
 * its path) and redis-server when installed: every experiment writes its file, a JSON line per run.
 */
class SuiteQuickTest {

    @Test
    void everyExperimentWritesItsRunsAsJsonLines(@TempDir Path out) throws Exception {
        Path jar = Path.of(System.getProperty("kvd.jar", "../kvd-server/target/kvd.jar"));
        assumeTrue(Files.isRegularFile(jar), "no kvd.jar at " + jar.toAbsolutePath() + ": build kvd-server first");
        Cli cli = new Cli();

        assertThat(cli.run("suite", "--quick", "--out", out.toString(), "--kvd-jar", jar.toString()))
                .as(cli.err.toString()).isZero();

        for (String experiment : Suite.EXPERIMENTS) {
            List<String> lines = Files.readAllLines(out.resolve(experiment + ".jsonl"));
            assertThat(lines).as(experiment).isNotEmpty().allSatisfy(line -> assertThat(line)
                    .startsWith("{\"time\":\"").contains(",\"experiment\":\"" + experiment + "\",\"scale\":\"quick\",")
                    .endsWith("}"));
            assertThat(lines).as(experiment).anySatisfy(line -> assertThat(line).contains("\"server\":\"kvd\""));
        }
        assertThat(Files.readString(out.resolve("suite.json"))).startsWith("{\"start\":\"").contains("\"scale\":\"quick\"");
        assertThat(out.resolve("work")).doesNotExist();
    }

    @Test
    void aMissingKvdJarIsSaidPlainly(@TempDir Path out) {
        Cli cli = new Cli();

        assertThat(cli.run("suite", "--quick", "--out", out.toString(), "--kvd-jar", out.resolve("none.jar").toString()))
                .isEqualTo(2);
        assertThat(cli.err.toString()).startsWith("kvbench suite: no kvd.jar at " + out.resolve("none.jar"));
    }
}
