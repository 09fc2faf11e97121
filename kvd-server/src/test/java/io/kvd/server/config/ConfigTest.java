package io.kvd.server.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ConfigTest {
    private static final Path SHIPPED = Path.of("..", "config", "kvd.conf");

    @Test
    void shippedFileListsEveryDirectiveWithItsBuiltInDefault() throws Exception {
        Config shipped = Config.load(SHIPPED, List.of());
        Config defaults = Config.defaults();
        String text = Files.readString(SHIPPED);
        for (Directive d : Config.directives()) {
            // Test knobs (Redis's hidden configs) are not an operator's to set.
            if (Config.isHidden(d.name())) {
                assertThat(text).as("kvd.conf leaves out the test knob %s", d.name()).doesNotContain(d.name());
                continue;
            }
            assertThat(text).as("kvd.conf mentions %s", d.name()).containsPattern("(?m)^" + d.name() + " ");
            assertThat(shipped.get(d.name())).as(d.name()).isEqualTo(defaults.get(d.name()));
        }
    }

    @Test
    void renameCommandLinesAreKeptInOrderWithTheirPlace(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("kvd.conf");
        Files.writeString(file, "rename-command FLUSHALL \"\"\nrename-command CONFIG b840fc02d524045429941cc15f59e41cb7be6c52\n");
        assertThat(Config.load(file, List.of()).commandRenames()).containsExactly(
                new Config.CommandRename("FLUSHALL", "", file + ":1"),
                new Config.CommandRename("CONFIG", "b840fc02d524045429941cc15f59e41cb7be6c52", file + ":2"));
        Files.writeString(file, "rename-command FLUSHALL\n");
        assertThatThrownBy(() -> Config.load(file, List.of())).hasMessageContaining("Bad directive or wrong number of arguments");
    }

    @Test
    void commandLineOptionsOverrideTheFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("kvd.conf");
        Files.writeString(file, "port 7000\nhz 20\n");
        Config config = Config.load(file, List.of("--port", "7001", "--bind", "127.0.0.1", "::1"));
        assertThat(config.port()).isEqualTo(7001);
        assertThat(config.hz()).isEqualTo(20);
        assertThat(config.bind()).containsExactly("127.0.0.1", "::1");
    }

    @Test
    void unknownDirectiveStopsTheStartNamingFileAndLine(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("kvd.conf");
        Files.writeString(file, "# comment\nport 7000\nportt 7001\n");
        assertThatThrownBy(() -> Config.load(file, List.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessage(file + ":3: unknown directive 'portt'");
    }

    @Test
    void badValueStopsTheStartWithTheReason(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("kvd.conf");
        Files.writeString(file, "hz 0\n");
        assertThatThrownBy(() -> Config.load(file, List.of()))
                .hasMessage(file + ":1: 'hz 0': argument must be between 1 and 500 inclusive");
    }

    @Test
    void keyspaceEventsKeepTheirFlagsWhileCanonicalFormDropsNBesideA(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("kvd.conf");
        Files.writeString(file, "notify-keyspace-events \"\"\n");
        assertThat(Config.load(file, List.of()).notifyKeyspaceEvents()).isZero();
        Config config = Config.load(file, List.of("--notify-keyspace-events", "KEnA"));
        assertThat(config.get(Config.NOTIFY_KEYSPACE_EVENTS)).isEqualTo("AKE");
        assertThat(config.notifyKeyspaceEvents()).isEqualTo(KeyspaceEventTypes.ALL | KeyspaceEventTypes.NEW
                | KeyspaceEventTypes.KEYSPACE | KeyspaceEventTypes.KEYEVENT);
        Files.writeString(file, "notify-keyspace-events KEA!\n");
        assertThatThrownBy(() -> Config.load(file, List.of())).hasMessage(file + ":1: 'notify-keyspace-events KEA!': "
                + "Invalid event class character. Use 'Ag$lshzxeKEtmdn'.");
    }

    @Test
    void sizesUseRedisUnits() throws Exception {
        Config config = Config.load(null, List.of("--client-output-soft-limit", "64kb", "--proto-max-bulk-len", "2mb"));
        assertThat(config.clientOutputSoftLimit()).isEqualTo(64 * 1024);
        assertThat(config.protoMaxBulkLen()).isEqualTo(2 * 1024 * 1024);
        assertThat(Config.load(null, List.of("--client-output-soft-limit", "3k")).clientOutputSoftLimit()).isEqualTo(3000);
    }

    @Test
    void clientQuerySliceDefaultsToRedisSixteenKilobytesAndIsAtLeastOneKilobyte() throws Exception {
        assertThat(Config.load(null, List.of()).clientQuerySlice()).isEqualTo(16 * 1024);
        assertThat(Config.load(null, List.of("--client-query-slice", "64kb")).clientQuerySlice()).isEqualTo(64 * 1024);
        assertThatThrownBy(() -> Config.load(null, List.of("--client-query-slice", "1000")))
                .hasMessage("command line: 'client-query-slice \"1000\"': argument must be between 1024 and 2147483647 inclusive");
    }

    @Test
    void protoMaxBulkLenBelowOneMegabyteIsRefused() {
        assertThatThrownBy(() -> Config.load(null, List.of("--proto-max-bulk-len", "1000")))
                .hasMessage("command line: 'proto-max-bulk-len \"1000\"': argument must be between 1048576 and 2147483647 inclusive");
    }

    @Test
    void emptyQuotedValueIsTheEmptyString() throws Exception {
        assertThat(Config.load(null, List.of("--logfile", "")).get(Config.LOGFILE)).isEmpty();
    }

    @Test
    void tlsProtocolsTakeRedisNamesInAnyCase() throws Exception {
        assertThat(Config.load(null, List.of("--tls-protocols", "tlsv1.2 TLSv1.3")).tlsProtocols())
                .isEqualTo("TLSv1.2 TLSv1.3");
        assertThatThrownBy(() -> Config.load(null, List.of("--tls-protocols", "SSLv3")))
                .hasMessage("command line: 'tls-protocols \"SSLv3\"': invalid tls-protocols specified: SSLv3");
    }

    @Test
    void tlsFilesCannotChangeAtRunTime() {
        for (String name : List.of(Config.TLS_PORT, Config.TLS_CERT_FILE, Config.TLS_KEY_FILE,
                Config.TLS_KEY_FILE_PASS, Config.TLS_CA_CERT_FILE, Config.TLS_AUTH_CLIENTS, Config.TLS_PROTOCOLS)) {
            assertThatThrownBy(() -> Config.defaults().set(name, "x")).as(name)
                    .hasMessage("can't set immutable config");
        }
    }

    @Test
    void theCommandLineBecomesLinesAsRedisMainBuildsThem() throws Exception {
        assertThat(Config.commandLineLines(List.of("--port", "6380", "--maxmemory 700mb", "--loglevel")))
                .containsExactly("port \"6380\" ", "maxmemory 700mb ", "loglevel ");
        // A lone option name takes the next argument as its value, even one starting with --.
        assertThat(Config.commandLineLines(List.of("--proc-title-template", "--my--title", "--port", "--bla", "--x")))
                .containsExactly("proc-title-template \"--my--title\" ", "port \"--bla\" ", "x ");
        assertThat(Config.commandLineLines(List.of("--save", "--loglevel", "verbose", "--save")))
                .containsExactly("save \"\"", "loglevel \"verbose\" ", "save \"\"");
        // Arguments before any option form a line too (Redis supports this "wrong usage").
        assertThat(Config.load(null, List.of("port", "1")).port()).isEqualTo(1);
        assertThatThrownBy(() -> Config.load(null, List.of("--port", "6379", "6380")))
                .hasMessage("command line: 'port \"6379\" \"6380\"': wrong number of arguments");
        assertThatThrownBy(() -> Config.load(null, List.of("--replicaof", "127.0.0.1", "abc")))
                .hasMessage("command line: 'replicaof \"127.0.0.1\" \"abc\"': Invalid master port");
    }

    @Test
    void configSetRefusesImmutableDirectives() {
        Config config = Config.defaults();
        assertThatThrownBy(() -> config.set("dir", "/tmp")).hasMessage("can't set immutable config");
        config.set("hz", "50");
        assertThat(config.hz()).isEqualTo(50);
    }

    @Test
    void clusterEnabledNeedsTheSlotMapFile() {
        assertThatThrownBy(() -> Config.load(null, List.of("--cluster-enabled", "yes")))
                .hasMessage("cluster-enabled yes needs cluster-config-file, the file of the slot map");
    }

    @Test
    void clusterEnabledNeedsAFixedPort(@TempDir Path dir) {
        assertThatThrownBy(() -> Config.load(null, List.of("--cluster-enabled", "yes", "--port", "0",
                "--cluster-config-file", dir.resolve("nodes.conf").toString())))
                .hasMessage("cluster-enabled yes needs a fixed port, the one the cluster file names");
    }

    @Test
    void aBadSlotMapStopsTheStartNamingItsFileAndLine(@TempDir Path dir) throws Exception {
        Path nodes = dir.resolve("nodes.conf");
        Files.writeString(nodes, "node a 127.0.0.1:7001 0-16383\nnode b 127.0.0.1:7002 5\n");
        assertThatThrownBy(() -> Config.load(null, List.of("--cluster-enabled", "yes", "--port", "7001",
                "--cluster-config-file", nodes.toString())))
                .isInstanceOf(ConfigException.class)
                .hasMessage(nodes + ":2: slot 5 is already assigned at line 1");
    }

    @Test
    void clusterIsOffByDefault() {
        assertThat(Config.defaults().cluster()).isNull();
    }

    @Test
    void includeReadsTheFileInPlaceSoLaterLinesWin(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("common.conf"), "hz 30\nmaxclients 50\n");
        Path file = dir.resolve("kvd.conf");
        Files.writeString(file, "hz 11\ninclude " + dir.resolve("common.conf") + "\nmaxclients 60\n");
        Config config = Config.load(file, List.of());
        assertThat(config.hz()).isEqualTo(30);
        assertThat(config.maxclients()).isEqualTo(60);
    }

    @Test
    void includeWithAGlobReadsTheMatchesInOrderAndNoMatchIsNoError(@TempDir Path dir) throws Exception {
        Path confd = Files.createDirectory(dir.resolve("conf.d"));
        Files.writeString(confd.resolve("b.conf"), "hz 30\n");
        Files.writeString(confd.resolve("a.conf"), "hz 40\nmaxclients 50\n");
        Files.writeString(confd.resolve(".hidden.conf"), "hz 50\n");
        Path file = dir.resolve("kvd.conf");
        Files.writeString(file, "include " + dir + "/conf.d/*.conf\ninclude " + dir + "/none.d/*.conf\n");
        Config config = Config.load(file, List.of());
        assertThat(config.hz()).isEqualTo(30);
        assertThat(config.maxclients()).isEqualTo(50);
    }

    @Test
    void aMissingIncludeStopsTheStartWithRedisText(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("kvd.conf");
        Files.writeString(file, "include nonexist.conf\n");
        assertThatThrownBy(() -> Config.load(file, List.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessage("Fatal error, can't open config file 'nonexist.conf': No such file or directory");
    }

    @Test
    void quotedValuesAreReadAsRedisSdssplitargsReadsThem(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("kvd.conf");
        Files.writeString(file, "masterauth \"a\\x41 b\\n\\q\"\nmasteruser 'it\\'s'\nrequirepass \"\"\n");
        Config config = Config.load(file, List.of());
        assertThat(config.get("masterauth")).isEqualTo("aA b\nq");
        assertThat(config.get("masteruser")).isEqualTo("it's");
        assertThat(config.get("requirepass")).isEmpty();
    }

    @Test
    void aClosingQuoteMustEndTheWord(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("kvd.conf");
        Files.writeString(file, "masterauth \"a\"b\n");
        assertThatThrownBy(() -> Config.load(file, List.of()))
                .hasMessage(file + ":1: Unbalanced quotes in configuration line");
        Files.writeString(file, "masterauth 'a\n");
        assertThatThrownBy(() -> Config.load(file, List.of()))
                .hasMessage(file + ":1: Unbalanced quotes in configuration line");
    }

    @Test
    void commandLineValuesWithQuotesAndControlCharactersArriveUnchanged() throws Exception {
        String value = "a \"b\" 'c' \\ \n\u00e9";
        assertThat(Config.load(null, List.of("--masterauth", value)).get("masterauth")).isEqualTo(value);
    }
}
