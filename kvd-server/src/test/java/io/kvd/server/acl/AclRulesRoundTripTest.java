package io.kvd.server.acl;

import io.kvd.server.command.CommandTable;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random ACL SETUSER rules: whatever a user ends up with, ACL LIST's description of it, set on a
 * new user, describes the same user again (Redis's ACL SAVE and LOAD depend on it), and the
 * description's command rules rebuild the exact command bitmap (checked while describing).
 */
class AclRulesRoundTripTest {
    private static final String[] COMMANDS = {"get", "set", "config", "config|get", "client|kill", "xgroup|create",
            "select", "eval", "publish", "flushall", "keys", "hset", "zadd", "acl|setuser", "ping"};
    /** No "*": Redis describes "%RW~*" as "~*", which reads back as allkeys (the same in redis-server). */
    private static final String[] PATTERNS = {"a*", "b?", "[ab]c", "k:*", "x"};
    private static final long SEED = 20_261_205L;

    @Test
    void theDescriptionOfAnyRulesDescribesTheSameUser() {
        long seed = SEED;
        System.out.println("AclRulesRoundTripTest seed " + seed);
        SplittableRandom random = new SplittableRandom(seed);
        AccessControl acl = new AccessControl(CommandTable.names(), () -> random.nextBoolean());
        for (int round = 0; round < 300; round++) {
            List<String> request = new ArrayList<>(List.of("ACL", "SETUSER", "u" + round));
            int count = random.nextInt(1, 12);
            for (int i = 0; i < count; i++) {
                String rule = rule(random);
                request.add(random.nextInt(8) == 0 ? "(" + rule + " " + rule(random) + ")" : rule);
            }
            try {
                acl.setUser(request);
            } catch (AclException refused) {
                continue;
            }
            String description = AccessControl.describe(acl.user("u" + round));
            List<String> again = new ArrayList<>(List.of("ACL", "SETUSER", "v" + round));
            again.addAll(List.of(description.substring(("user u" + round + " ").length()).split(" ")));
            acl.setUser(again);
            assertThat(AccessControl.describe(acl.user("v" + round)).substring(("user v" + round).length()))
                    .as("seed %d, rules %s", seed, request).isEqualTo(description.substring(("user u" + round).length()));
        }
    }

    @Test
    void anyRuleTextIsAppliedOrRefusedWithRedisError() {
        String[] pieces = {"+", "-", "@", "~", "%", "R", "W", "&", "(", ")", "|", "<", ">", "#", "!", "*", " ", "get",
                "config", "all", "read", "on", "off", "nopass", "reset", "keys", "channels", "a".repeat(64), "\0", ""};
        SplittableRandom random = new SplittableRandom(SEED);
        AccessControl acl = new AccessControl(CommandTable.names(), () -> false);
        for (int round = 0; round < 5000; round++) {
            List<String> request = new ArrayList<>(List.of("ACL", "SETUSER", "f" + round % 7));
            for (int words = random.nextInt(1, 4); words > 0; words--) {
                StringBuilder word = new StringBuilder();
                for (int n = random.nextInt(1, 5); n > 0; n--) {
                    word.append(pieces[random.nextInt(pieces.length)]);
                }
                request.add(word.toString());
            }
            try {
                acl.setUser(request);
            } catch (AclException refused) {
                assertThat(refused.getMessage()).as("rules %s", request).startsWith("ERR ");
            }
            assertThat(AccessControl.describe(acl.user(request.get(2)) == null ? acl.defaultUser()
                    : acl.user(request.get(2)))).startsWith("user ");
        }
    }

    private static String rule(SplittableRandom random) {
        AclCategory[] categories = AclCategory.values();
        return switch (random.nextInt(16)) {
            case 0 -> random.nextBoolean() ? "on" : "off";
            case 1 -> ">pw" + random.nextInt(3);
            case 2 -> random.nextBoolean() ? "nopass" : "resetpass";
            case 3, 4 -> "+" + COMMANDS[random.nextInt(COMMANDS.length)];
            case 5 -> "-" + COMMANDS[random.nextInt(COMMANDS.length)];
            case 6, 7 -> (random.nextBoolean() ? "+@" : "-@") + categories[random.nextInt(categories.length)].ruleName();
            case 8 -> random.nextBoolean() ? "+select|" + random.nextInt(3) : "+@all";
            case 9 -> new String[] {"~", "%R~", "%W~", "%RW~"}[random.nextInt(4)] + PATTERNS[random.nextInt(PATTERNS.length)];
            case 10 -> "&" + PATTERNS[random.nextInt(PATTERNS.length)];
            case 11 -> new String[] {"allkeys", "resetkeys", "allchannels", "resetchannels"}[random.nextInt(4)];
            case 12 -> random.nextBoolean() ? "allcommands" : "nocommands";
            case 13 -> random.nextInt(4) == 0 ? "reset" : "clearselectors";
            case 14 -> "-@all";
            default -> "<pw" + random.nextInt(3);
        };
    }
}
