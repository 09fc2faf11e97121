package io.kvd.bench;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/** INFO's {@code name:value} lines, as a map; section headers and blank lines are skipped. */
final class InfoFields {
    private InfoFields() {
    }

    static Map<String, String> parse(String info) {
        Map<String, String> fields = new HashMap<>();
        for (String line : info.split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && !line.startsWith("#")) {
                fields.put(line.substring(0, colon), line.substring(colon + 1));
            }
        }
        return fields;
    }

    /** The fields of {@code INFO section} from the server. */
    static Map<String, String> ask(RespClient client, String section) throws IOException {
        return parse(client.callForText("INFO", section));
    }
}
