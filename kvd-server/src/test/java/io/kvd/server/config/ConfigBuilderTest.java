package io.kvd.server.config;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ConfigBuilderTest {

    @Test
    void testDefaultsListenOnLoopbackOnAFreePortWithoutAof() {
        Config config = ConfigBuilder.forTests().build();

        assertThat(config.bind()).containsExactly("127.0.0.1");
        assertThat(config.port()).isZero();
        assertThat(config.get(Config.APPENDONLY)).isEqualTo("no");
    }

    @Test
    void everyOtherDirectiveKeepsItsBuiltInDefault() {
        Config config = ConfigBuilder.forTests().build();
        Config defaults = Config.defaults();

        for (Directive d : Config.directives()) {
            if (!d.name().equals(Config.BIND) && !d.name().equals(Config.PORT) && !d.name().equals(Config.APPENDONLY)) {
                assertThat(config.get(d.name())).as(d.name()).isEqualTo(defaults.get(d.name()));
            }
        }
    }

    @Test
    void defaultsAreTheBuiltInOnes() {
        Config config = ConfigBuilder.defaults().build();

        for (Directive d : Config.directives()) {
            assertThat(config.get(d.name())).as(d.name()).isEqualTo(Config.defaults().get(d.name()));
        }
    }

    @Test
    void dirPortAndOptionsSetTheirDirectives() {
        Config config = ConfigBuilder.forTests().dir(Path.of("/tmp/kvd test")).port(7000).option("hz", "100").build();

        assertThat(config.dir()).isEqualTo(Path.of("/tmp/kvd test"));
        assertThat(config.port()).isEqualTo(7000);
        assertThat(config.hz()).isEqualTo(100);
    }

    @Test
    void anOptionTakesSeveralWords() {
        assertThat(ConfigBuilder.forTests().option("bind", "127.0.0.1", "-::1").build().bind())
                .containsExactly("127.0.0.1", "-::1");
    }

    @Test
    void aLaterOptionReplacesAnEarlierOne() {
        assertThat(ConfigBuilder.forTests().option("hz", "20").option("hz", "30").build().hz()).isEqualTo(30);
    }

    @Test
    void anEmptyWordIsAValue() {
        assertThat(ConfigBuilder.forTests().option("save", "").build().get(Config.SAVE)).isEmpty();
    }

    @Test
    void aBadValueIsRejectedAsKvdConfWouldReject() {
        assertThatThrownBy(() -> ConfigBuilder.forTests().option("hz", "0").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("command line: 'hz \"0\"': argument must be between 1 and 500 inclusive");
    }

    @Test
    void anUnknownDirectiveIsRejected() {
        assertThatThrownBy(() -> ConfigBuilder.forTests().option("portt", "1").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("command line: unknown directive 'portt'");
    }
}
