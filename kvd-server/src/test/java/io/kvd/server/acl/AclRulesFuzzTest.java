package io.kvd.server.acl;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.kvd.codec.RespReply;
import io.kvd.codec.RespReplyParser;
import io.kvd.server.command.CommandTable;
import io.kvd.server.protocol.Reply;
import io.kvd.server.stats.ErrorStats;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Any ACL SETUSER rules, through the entry the command uses ({@link AccessControl#setUser}): they
 * apply, or are refused with one of Redis's texts for a malformed rule and change nothing; an
 * accepted user, described by ACL LIST or ACL GETUSER and set again from that description, is the
 * same user. The input is Latin-1 text, a rule per line; an empty line starts another ACL SETUSER
 * of the same user. Replays the corpus in src/test/resources on every build (the rules of Redis's
 * tests/unit/acl.tcl and acl-v2.tcl, and inputs on which kvd answered otherwise than redis-server,
 * which AclRulesCorpusDifferentialTest compares); {@code JAZZER_FUZZ=1 mvn test -pl
 * kvd-codec,kvd-server -Dtest=AclRulesFuzzTest -Dsurefire.failIfNoSpecifiedTests=false} fuzzes.
 */
class AclRulesFuzzTest {
    private static final String NAME = "fuzz";
    /** acl.c's ACLSetUserStringError, the reasons ACL SETUSER gives for a rule. */
    private static final List<String> REDIS_REASONS = List.of(
            "Unknown command or category name in ACL",
            "Syntax error",
            "Adding a pattern after the * pattern (or the 'allkeys' flag) is not valid and does not have any effect."
                    + " Try 'resetkeys' to start with an empty list of patterns",
            "Adding a pattern after the * pattern (or the 'allchannels' flag) is not valid and does not have any"
                    + " effect. Try 'resetchannels' to start with an empty list of channels",
            "The password you are trying to remove from the user does not exist",
            "The password hash must be exactly 64 characters and contain only lowercase hexadecimal characters",
            "Allowing first-arg of a subcommand is not supported",
            "Wrong format");
    private static final AccessControl ACL = new AccessControl(CommandTable.names(), () -> false);

    @FuzzTest(maxDuration = "60s")
    void rulesApplyOrAreRefusedAsRedisAndDescriptionsRoundTrip(byte[] input) {
        ACL.deleteUser(NAME);
        List<List<String>> requests = new ArrayList<>();
        List<String> request = setuser(NAME);
        for (String line : new String(input, StandardCharsets.ISO_8859_1).split("\n", -1)) {
            if (line.isEmpty()) {
                requests.add(request);
                request = setuser(NAME);
            } else {
                request.add(line);
            }
        }
        requests.add(request);
        for (List<String> rules : requests) {
            User before = ACL.user(NAME);
            String described = before == null ? null : AccessControl.describe(before);
            try {
                ACL.setUser(rules);
            } catch (AclException refused) {
                assertRedisRefusal(refused.getMessage(), rules);
                User after = ACL.user(NAME);
                assertThat(after == null ? null : AccessControl.describe(after)).as("refused rules change nothing")
                        .isEqualTo(described);
                continue;
            }
            assertRoundTrips(ACL.user(NAME));
        }
    }

    private static List<String> setuser(String name) {
        return new ArrayList<>(List.of("ACL", "SETUSER", name));
    }

    private static void assertRedisRefusal(String message, List<String> rules) {
        String unmatched = "ERR Unmatched parenthesis in acl selector starting at '";
        if (message.startsWith(unmatched)) {
            // Redis prints the rule as a C string, up to a NUL.
            assertThat(rules.stream().map(Latin1::cString))
                    .contains(message.substring(unmatched.length(), message.length() - 2));
            assertThat(message).endsWith("'.");
            return;
        }
        assertThat(message).startsWith("ERR Error in ACL SETUSER modifier '");
        assertThat(REDIS_REASONS).as(message).anyMatch(reason -> message.endsWith("': " + reason));
    }

    /** ACL LIST's line and ACL GETUSER's fields, each set on a new user, describe the same user again. */
    private static void assertRoundTrips(User user) {
        String line = AccessControl.describe(user);
        if (!describable(user)) {
            return;
        }
        List<String> fromList = setuser("from-list");
        fromList.addAll(List.of(line.substring(("user " + NAME + " ").length()).split(" ")));
        List<String> fromGetuser = setuser("from-getuser");
        fromGetuser.addAll(rulesOf(getuser(user)));
        try {
            for (List<String> again : List.of(fromList, fromGetuser)) {
                ACL.setUser(again);
                User copy = ACL.user(again.get(2));
                assertThat(AccessControl.describe(copy)).as("%s", again)
                        .isEqualTo("user " + again.get(2) + line.substring(("user " + NAME).length()));
                assertThat(getuser(copy)).as("%s", again).isEqualTo(getuser(user));
            }
        } finally {
            ACL.deleteUser("from-list");
            ACL.deleteUser("from-getuser");
        }
    }

    /**
     * Whether Redis's description of the user can carry it, in redis-server as here: a first
     * argument with spaces ({@code "+select|a b"}) splits in two; in a selector, whose text is split
     * as sdssplitargs splits, a quote starts quoting and a word ending in ')' closes the selector;
     * and the pattern {@code %RW~*} reads back as {@code ~*}, allkeys, after which no pattern may follow.
     */
    private static boolean describable(User user) {
        for (Selector selector : user.selectors()) {
            List<String> texts = new ArrayList<>(selector.channels);
            selector.keys.forEach(k -> texts.add(k.text()));
            for (List<String> args : selector.firstArgs.values()) {
                if (args.stream().anyMatch(a -> a.chars().anyMatch(c -> " \t\n\r\u000b\f\0".indexOf(c) >= 0))) {
                    return false;
                }
                texts.addAll(args);
            }
            if (!selector.root && texts.stream().anyMatch(t -> t.endsWith(")") || t.contains("\"") || t.contains("'"))) {
                return false;
            }
            if (selector.keys.size() > 1 && selector.keys.stream().anyMatch(k -> k.text().equals("*")
                    && k.permissions() == (Selector.READ | Selector.WRITE))) {
                return false;
            }
        }
        return true;
    }

    /** ACL GETUSER's reply, RESP2. */
    private static RespReply getuser(User user) {
        Reply reply = new Reply(UnpooledByteBufAllocator.DEFAULT, new ErrorStats());
        user.writeTo(reply);
        ByteBuf bytes = reply.take();
        try {
            return RespReplyParser.parse(bytes);
        } finally {
            bytes.release();
        }
    }

    /** The rules ACL GETUSER's fields spell: flags, password hashes, the root selector's rules, each selector's. */
    private static List<String> rulesOf(RespReply getuser) {
        List<RespReply> fields = ((RespReply.Array) getuser).elements();
        List<String> rules = new ArrayList<>();
        ((RespReply.Array) fields.get(1)).elements().forEach(flag -> rules.add(text(flag)));
        ((RespReply.Array) fields.get(3)).elements().forEach(hash -> rules.add("#" + text(hash)));
        rules.addAll(selectorRules(fields.subList(4, 10)));
        for (RespReply selector : ((RespReply.Array) fields.get(11)).elements()) {
            List<String> inner = selectorRules(((RespReply.Array) selector).elements());
            rules.add("(" + String.join(" ", inner) + ")");
        }
        return rules;
    }

    /** commands, keys and channels fields: the commands' rules, resetkeys and the keys, resetchannels and the channels. */
    private static List<String> selectorRules(List<RespReply> fields) {
        List<String> rules = new ArrayList<>(words(text(fields.get(1))));
        rules.add("resetkeys");
        rules.addAll(words(text(fields.get(3))));
        rules.add("resetchannels");
        rules.addAll(words(text(fields.get(5))));
        return rules;
    }

    private static List<String> words(String field) {
        return field.isEmpty() ? List.of() : List.of(field.split(" "));
    }

    private static String text(RespReply bulk) {
        return new String(((RespReply.BulkString) bulk).value(), StandardCharsets.ISO_8859_1);
    }
}
