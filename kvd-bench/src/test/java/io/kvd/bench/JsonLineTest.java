package io.kvd.bench;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JsonLineTest {

    @Test
    void readsBackEveryKindOfValueResultJsonWrites() {
        String line = new ResultJson().field("text", "a \"quoted\" \\ \n line").field("whole", 42L)
                .field("fraction", 0.5).field("flag", true).field("nothing", null).field("list", List.of(1L, -2L))
                .toString();

        Map<String, Object> fields = JsonLine.parse(line);

        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("text", "a \"quoted\" \\ \n line");
        expected.put("whole", 42.0);
        expected.put("fraction", 0.5);
        expected.put("flag", true);
        expected.put("nothing", null);
        expected.put("list", List.of(1.0, -2.0));
        assertThat(fields).isEqualTo(expected);
        assertThat(fields.keySet()).containsExactlyElementsOf(expected.keySet());
    }

    @Test
    void nestedObjectsAreRejected() {
        assertThatThrownBy(() -> JsonLine.parse("{\"a\":{\"b\":1}}"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("expected a value at offset 5");
    }
}
