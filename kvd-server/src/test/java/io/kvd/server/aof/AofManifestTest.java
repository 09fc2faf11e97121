package io.kvd.server.aof;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The manifest's lines as Redis 7.0's aofLoadManifestFromFile reads them and getAofManifestAsString writes them. */
class AofManifestTest {
    private static final String REDIS_EXAMPLE = """
            file appendonly.aof.2.base.rdb seq 2 type b
            file appendonly.aof.1.incr.aof seq 1 type h
            file appendonly.aof.2.incr.aof seq 2 type h
            file appendonly.aof.3.incr.aof seq 3 type h
            file appendonly.aof.4.incr.aof seq 4 type i
            file appendonly.aof.5.incr.aof seq 5 type i
            """;

    private static AofManifest parse(String text) throws AofManifestException {
        return AofManifest.parse(text.getBytes(StandardCharsets.UTF_8), "appendonly.aof");
    }

    private static void assertRefused(String text, String error, String line) {
        assertThatThrownBy(() -> parse(text)).isInstanceOfSatisfying(AofManifestException.class, e -> {
            assertThat(e.getMessage()).isEqualTo(error);
            assertThat(e.line()).isEqualTo(line);
        });
    }

    @Test
    void redisExampleReadsIntoBaseHistoryAndIncrsAndIsWrittenBackByteForByte() throws Exception {
        AofManifest manifest = parse(REDIS_EXAMPLE);
        assertThat(manifest.base()).isEqualTo(new AofInfo("appendonly.aof.2.base.rdb", 2, AofInfo.Type.BASE));
        assertThat(manifest.history()).extracting(AofInfo::seq).containsExactly(1L, 2L, 3L);
        assertThat(manifest.incrs()).extracting(AofInfo::name)
                .containsExactly("appendonly.aof.4.incr.aof", "appendonly.aof.5.incr.aof");
        assertThat(manifest.format()).isEqualTo(REDIS_EXAMPLE);
    }

    @Test
    void keysInAnyOrderAndCaseCommentsAndExtraPairsAreAccepted() throws Exception {
        AofManifest manifest = parse("# a comment\nSEQ 1 TYPE b FILE base.rdb future value\n");
        assertThat(manifest.base()).isEqualTo(new AofInfo("base.rdb", 1, AofInfo.Type.BASE));
    }

    @Test
    void aNameWithSpacesIsQuotedAsSdscatreprAndReadBack() throws Exception {
        AofManifest manifest = new AofManifest("my aof");
        manifest.newBase(true);
        manifest.newIncr();
        String text = manifest.format();
        assertThat(text).isEqualTo("file \"my aof.1.base.rdb\" seq 1 type b\nfile \"my aof.1.incr.aof\" seq 1 type i\n");
        assertThat(AofManifest.parse(text.getBytes(StandardCharsets.UTF_8), "my aof").format()).isEqualTo(text);
    }

    @Test
    void redisErrorsForABadManifest() {
        assertRefused("", "Found an empty AOF manifest", null);
        assertRefused("file a seq 1 type b\n\n", AofManifest.INVALID_FORMAT, "");
        assertRefused("file a seq 1 type b", "The AOF manifest file contains too long line", null);
        assertRefused("file " + "a".repeat(1100) + " seq 1 type i\n", "The AOF manifest file contains too long line", null);
        assertRefused("file a seq 1 type\n", AofManifest.INVALID_FORMAT, "file a seq 1 type");
        assertRefused("file a seq 1 type b x\n", AofManifest.INVALID_FORMAT, "file a seq 1 type b x");
        assertRefused("filx a seq 1 type b\n", AofManifest.INVALID_FORMAT, "filx a seq 1 type b");
        assertRefused("file a seq 0 type b\n", AofManifest.INVALID_FORMAT, "file a seq 0 type b");
        assertRefused("file \"a seq 1 type b\n", AofManifest.INVALID_FORMAT, "file \"a seq 1 type b");
        assertRefused("file a seq 1 type x\n", "Unknown AOF file type", "file a seq 1 type x");
        assertRefused("file dir/a seq 1 type b\n", "File can't be a path, just a filename", "file dir/a seq 1 type b");
        assertRefused("file a seq 1 type b\nfile b seq 2 type b\n", "Found duplicate base file information",
                "file b seq 2 type b");
        assertRefused("file a seq 2 type i\nfile b seq 2 type i\n", "Found a non-monotonic sequence number",
                "file b seq 2 type i");
    }

    @Test
    void errorsNameTheLineNumberCountingComments() {
        assertThatThrownBy(() -> parse("# comment\nfile a seq 1 type b\nfile a seq 1 type q\n"))
                .isInstanceOfSatisfying(AofManifestException.class, e -> assertThat(e.lineNumber()).isEqualTo(3));
    }

    @Test
    void aNewBaseMakesTheOldOneHistoryAndTheRewrittenIncrsFollowIt() throws Exception {
        AofManifest manifest = parse("file appendonly.aof.1.base.rdb seq 1 type b\n"
                + "file appendonly.aof.1.incr.aof seq 1 type i\n");
        AofManifest rewriting = manifest.copy();
        assertThat(rewriting.newIncr()).isEqualTo("appendonly.aof.2.incr.aof");
        assertThat(manifest.incrs()).hasSize(1);
        assertThat(rewriting.newBase(false)).isEqualTo("appendonly.aof.2.base.aof");
        rewriting.markRewrittenIncrsAsHistory(true);
        assertThat(rewriting.format()).isEqualTo("file appendonly.aof.2.base.aof seq 2 type b\n"
                + "file appendonly.aof.1.incr.aof seq 1 type h\n"
                + "file appendonly.aof.1.base.rdb seq 1 type h\n"
                + "file appendonly.aof.2.incr.aof seq 2 type i\n");
        rewriting.clearHistory();
        assertThat(rewriting.history()).isEmpty();
    }

    @Test
    void withTheAofOffEveryIncrIsCoveredByTheNewBase() throws Exception {
        AofManifest manifest = parse("file appendonly.aof.1.incr.aof seq 1 type i\n"
                + "file appendonly.aof.3.incr.aof seq 3 type i\n");
        manifest.newBase(true);
        manifest.markRewrittenIncrsAsHistory(false);
        assertThat(manifest.incrs()).isEmpty();
        assertThat(manifest.history()).extracting(AofInfo::seq).containsExactly(1L, 3L);
        assertThat(manifest.lastIncr()).isEqualTo("appendonly.aof.4.incr.aof");
    }

    @Test
    void anUpgradedSingleFileIsTheBaseUnderItsOwnName() {
        AofManifest manifest = new AofManifest("appendonly.aof");
        manifest.upgradeFrom("appendonly.aof");
        assertThat(manifest.format()).isEqualTo("file appendonly.aof seq 1 type b\n");
        assertThat(List.of(manifest.newBase(true))).containsExactly("appendonly.aof.2.base.rdb");
    }
}
