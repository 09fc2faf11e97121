package io.kvd.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class PlotTest {

    @Test
    void summaryAveragesEachPointsRunsAndNamesSkippedOnes(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("aof.jsonl"), String.join("\n",
                "{\"experiment\":\"aof\",\"server\":\"redis\",\"rep\":1,\"appendfsync\":\"always\",\"pipeline\":16,"
                        + "\"ops_per_sec\":1000.0,\"p50_us\":10.0,\"p99_us\":30.0}",
                "{\"experiment\":\"aof\",\"server\":\"redis\",\"rep\":2,\"appendfsync\":\"always\",\"pipeline\":16,"
                        + "\"ops_per_sec\":3000.0,\"p50_us\":20.0,\"p99_us\":50.0}",
                "{\"experiment\":\"aof\",\"server\":\"kvd\",\"rep\":1,\"appendfsync\":\"always\",\"pipeline\":16,"
                        + "\"skipped\":\"kvd exited with code 1\"}") + "\n");

        Plot.write(dir);

        assertThat(Files.readString(dir.resolve("summary.csv"))).isEqualTo("""
                experiment,server,point,metric,runs,mean,min,max,note
                aof,redis,always P=16,ops_per_sec,2,2000,1000,3000,
                aof,redis,always P=16,p50_us,2,15,10,20,
                aof,redis,always P=16,p99_us,2,40,30,50,
                aof,kvd,always P=16,skipped,1,,,,"kvd exited with code 1"
                """);
    }

    @Test
    void eachViewWithRunsGetsAPngChart(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("depth.jsonl"),
                "{\"server\":\"kvd\",\"rep\":1,\"pipeline\":1,\"ops_per_sec\":10.0,\"p50_us\":1.0,\"p99_us\":2.0}\n"
                + "{\"server\":\"kvd\",\"rep\":1,\"pipeline\":16,\"ops_per_sec\":90.0,\"p50_us\":3.0,\"p99_us\":4.0}\n");

        assertThat(Plot.write(dir)).containsExactly(dir.resolve("summary.csv"), dir.resolve("depth.png"),
                dir.resolve("depth-latency.png"));
        byte[] png = Files.readAllBytes(dir.resolve("depth.png"));
        assertThat(png).startsWith(0x89, 'P', 'N', 'G');
    }
}
