package io.kvd.server.acl;

import io.kvd.server.glob.Glob;
import io.kvd.server.keyspec.KeyFlag;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Redis 7.0's aclSelector: the commands (a bit per command id, and first arguments allowed of an
 * otherwise denied command), key patterns with their read/write permissions, and channel patterns.
 * A user's root selector holds the rules given outside parentheses; each {@code (...)} adds one.
 * Texts are Latin-1 strings, one char per byte of the request.
 */
final class Selector {
    static final int READ = 1;
    static final int WRITE = 2;
    private static final int ALL = READ | WRITE;

    /** A key pattern and the permissions it grants (Redis's keyPattern). */
    record KeyPattern(String text, byte[] bytes, int permissions) {
        String describe() {
            return (permissions == ALL ? "~" : permissions == READ ? "%R~" : "%W~") + text;
        }
    }

    private final AclCommands commands;
    final boolean root;
    boolean allKeys;
    boolean allChannels;
    boolean allCommands;
    /** A bit per command id, and the reserved bit (id {@code commands.count()}) that +@all sets: future commands. */
    final BitSet allowed;
    /** Per command id, the first arguments allowed of an otherwise denied command ({@code +select|0}). */
    final Map<Integer, List<String>> firstArgs = new LinkedHashMap<>();
    final List<KeyPattern> keys = new ArrayList<>();
    final List<String> channels = new ArrayList<>();

    Selector(AclCommands commands, boolean root, boolean allChannelsByDefault) {
        this.commands = commands;
        this.root = root;
        this.allChannels = allChannelsByDefault;
        this.allowed = new BitSet(commands.count() + 1);
    }

    Selector copy() {
        Selector copy = new Selector(commands, root, allChannels);
        copy.allKeys = allKeys;
        copy.allCommands = allCommands;
        copy.allowed.or(allowed);
        firstArgs.forEach((id, args) -> copy.firstArgs.put(id, new ArrayList<>(args)));
        copy.keys.addAll(keys);
        copy.channels.addAll(channels);
        return copy;
    }

    /**
     * Redis's ACLSetSelector: applies one rule, or throws with Redis's reason. Words, commands and
     * categories are read up to a NUL, as Redis's strcasecmp and command lookup read them; key and
     * channel patterns whole, so a NUL in one is refused as a space.
     */
    void apply(String op) {
        String word = Latin1.cString(op);
        if (word.equalsIgnoreCase("allkeys") || word.equals("~*")) {
            allKeys = true;
            keys.clear();
        } else if (word.equalsIgnoreCase("resetkeys")) {
            allKeys = false;
            keys.clear();
        } else if (word.equalsIgnoreCase("allchannels") || word.equals("&*")) {
            allChannels = true;
            channels.clear();
        } else if (word.equalsIgnoreCase("resetchannels")) {
            allChannels = false;
            channels.clear();
        } else if (word.equalsIgnoreCase("allcommands") || word.equalsIgnoreCase("+@all")) {
            allowed.set(0, commands.count() + 1);
            allCommands = true;
            firstArgs.clear();
        } else if (word.equalsIgnoreCase("nocommands") || word.equalsIgnoreCase("-@all")) {
            allowed.clear();
            allCommands = false;
            firstArgs.clear();
        } else if (op.startsWith("~") || op.startsWith("%")) {
            addKeyPattern(op);
        } else if (op.startsWith("&")) {
            if (allChannels) {
                throw new AclException(AclException.CHANNEL_AFTER_ALL);
            }
            String pattern = op.substring(1);
            if (hasSpaces(pattern)) {
                throw new AclException(AclException.SYNTAX);
            }
            if (!channels.contains(pattern)) {
                channels.add(pattern);
            }
        } else if (word.startsWith("+@") || word.startsWith("-@")) {
            AclCategory category = AclCategory.byName(word.substring(2));
            if (category == null) {
                throw new AclException(AclException.UNKNOWN_COMMAND);
            }
            setCategory(category.flag(), op.charAt(0) == '+');
        } else if (word.startsWith("+")) {
            allowCommand(word.substring(1));
        } else if (word.startsWith("-")) {
            changePermission(known(word.substring(1)), false);
        } else {
            throw new AclException(AclException.SYNTAX);
        }
    }

    private void addKeyPattern(String op) {
        if (allKeys) {
            throw new AclException(AclException.KEY_AFTER_ALL);
        }
        int permissions = 0;
        int offset = 1;
        if (op.charAt(0) == '%') {
            for (; offset < op.length(); offset++) {
                char c = Character.toUpperCase(op.charAt(offset));
                if (c == 'R' && (permissions & READ) == 0) {
                    permissions |= READ;
                } else if (c == 'W' && (permissions & WRITE) == 0) {
                    permissions |= WRITE;
                } else if (op.charAt(offset) == '~') {
                    offset++;
                    break;
                } else {
                    throw new AclException(AclException.SYNTAX);
                }
            }
        } else {
            permissions = ALL;
        }
        // As Redis 7.0.15: a pattern granting no permission ("%~x") is a syntax error.
        if (permissions == 0) {
            throw new AclException(AclException.SYNTAX);
        }
        // As Redis: "%R" without '~' ends the loop at the end of the text, a pattern of nothing.
        String pattern = op.substring(offset);
        if (hasSpaces(pattern)) {
            throw new AclException(AclException.SYNTAX);
        }
        for (int i = 0; i < keys.size(); i++) {
            KeyPattern old = keys.get(i);
            if (old.text().equals(pattern)) {
                keys.set(i, new KeyPattern(pattern, old.bytes(), old.permissions() | permissions));
                return;
            }
        }
        keys.add(new KeyPattern(pattern, pattern.getBytes(StandardCharsets.ISO_8859_1), permissions));
    }

    /** {@code +cmd}, {@code +container|sub}, or {@code +cmd|first-arg} (a deprecated form Redis still takes). */
    private void allowCommand(String name) {
        int bar = name.lastIndexOf('|');
        if (bar < 0) {
            changePermission(known(name), true);
            return;
        }
        AclCommands.Entry command = known(name.substring(0, bar));
        if (command.parent() != null) {
            throw new AclException(AclException.FIRST_ARG_OF_SUBCOMMAND);
        }
        String sub = name.substring(bar + 1);
        if (sub.isEmpty()) {
            throw new AclException(AclException.SYNTAX);
        }
        if (!command.subcommands().isEmpty()) {
            changePermission(known(name), true);
            return;
        }
        List<String> args = firstArgs.computeIfAbsent(command.id(), id -> new ArrayList<>());
        if (args.stream().noneMatch(sub::equalsIgnoreCase)) {
            args.add(sub);
        }
    }

    private AclCommands.Entry known(String name) {
        AclCommands.Entry command = commands.lookup(name);
        if (command == null) {
            throw new AclException(AclException.UNKNOWN_COMMAND);
        }
        return command;
    }

    /** Redis's ACLChangeSelectorPerm: a command's bit, and a container's subcommands' too. */
    void changePermission(AclCommands.Entry command, boolean allow) {
        setBit(command.id(), allow);
        firstArgs.remove(command.id());
        for (AclCommands.Entry sub : command.subcommands()) {
            setBit(sub.id(), allow);
        }
    }

    private void setBit(int id, boolean value) {
        if (value) {
            allowed.set(id);
        } else {
            allowed.clear(id);
            allCommands = false;
        }
    }

    /** Redis's ACLSetSelectorCommandBitsForCategoryLogic over every command and subcommand in the category. */
    private void setCategory(long category, boolean allow) {
        setCategory(commands.topLevel(), category, allow);
    }

    private void setCategory(List<AclCommands.Entry> entries, long category, boolean allow) {
        for (AclCommands.Entry command : entries) {
            if (command.has(category)) {
                changePermission(command, allow);
            }
            setCategory(command.subcommands(), category, allow);
        }
    }

    boolean canRunFutureCommands() {
        return allowed.get(commands.count());
    }

    /** Redis's ACLDescribeSelector: keys, channels and command rules as ACL LIST shows them. */
    String describe() {
        StringBuilder out = new StringBuilder();
        if (allKeys) {
            out.append("~* ");
        } else {
            keys.forEach(k -> out.append(k.describe()).append(' '));
        }
        if (allChannels) {
            out.append("&* ");
        } else {
            out.append("resetchannels ");
            channels.forEach(c -> out.append('&').append(c).append(' '));
        }
        return out.append(describeCommands()).toString();
    }

    /** ACL GETUSER's keys field. */
    String describeKeys() {
        return allKeys ? "~*" : String.join(" ", keys.stream().map(KeyPattern::describe).toList());
    }

    /** ACL GETUSER's channels field. */
    String describeChannels() {
        return allChannels ? "&*" : String.join(" ", channels.stream().map(c -> "&" + c).toList());
    }

    /**
     * Redis's ACLDescribeSelectorCommandRules: +@all or -@all, then the categories that fit best
     * (more commands in common with the bitmap than different, fewest differences first), then
     * the single commands still differing, applied as they are emitted to a selector that must end
     * equal to this one.
     */
    String describeCommands() {
        boolean additive = !canRunFutureCommands();
        StringBuilder rules = new StringBuilder(additive ? "-@all " : "+@all ");
        Selector fake = new Selector(commands, false, false);
        fake.apply(additive ? "-@all" : "+@all");
        Selector temp = new Selector(commands, false, false);
        temp.allowed.or(allowed);
        boolean[] applied = new boolean[AclCategory.values().length];
        while (true) {
            int best = -1;
            long minDiff = Integer.MAX_VALUE;
            long maxSame = 0;
            for (AclCategory category : AclCategory.values()) {
                if (applied[category.ordinal()]) {
                    continue;
                }
                long[] onOff = temp.countCategory(category.flag());
                long diff = additive ? onOff[1] : onOff[0];
                long same = additive ? onOff[0] : onOff[1];
                if (same > diff && (diff < minDiff || diff == minDiff && same > maxSame)) {
                    best = category.ordinal();
                    minDiff = diff;
                    maxSame = same;
                }
            }
            if (best == -1) {
                break;
            }
            String name = AclCategory.values()[best].ruleName();
            fake.apply((additive ? "+@" : "-@") + name);
            temp.apply((additive ? "-@" : "+@") + name);
            rules.append(additive ? "+@" : "-@").append(name).append(' ');
            applied[best] = true;
        }
        describeSingleCommands(fake, rules, commands.topLevel());
        rules.setLength(rules.length() - 1);
        if (!fake.allowed.equals(allowed)) {
            throw new IllegalStateException("ACL rules do not match the command bitmap: " + rules);
        }
        return rules.toString();
    }

    private void describeSingleCommands(Selector fake, StringBuilder rules, List<AclCommands.Entry> entries) {
        for (AclCommands.Entry command : entries) {
            boolean userBit = allowed.get(command.id());
            if (userBit != fake.allowed.get(command.id())) {
                rules.append(userBit ? '+' : '-').append(command.fullName()).append(' ');
                fake.changePermission(command, userBit);
            }
            describeSingleCommands(fake, rules, command.subcommands());
            List<String> args = firstArgs.get(command.id());
            if (!userBit && args != null) {
                args.forEach(arg -> rules.append('+').append(command.fullName()).append('|').append(arg).append(' '));
            }
        }
    }

    /** How many commands of the category this selector allows and denies (Redis's ACLCountCategoryBitsForSelector). */
    private long[] countCategory(long category) {
        BitSet in = commands.idsIn(category);
        BitSet on = (BitSet) allowed.clone();
        on.and(in);
        return new long[] {on.cardinality(), in.cardinality() - on.cardinality()};
    }

    /**
     * Whether the command itself may run (its bit, or an allowed first argument): Redis's first
     * check in ACLSelectorCheckCmd.
     */
    boolean allowsCommand(AclCommands.Entry command, byte[][] argv) {
        if (allCommands || command.noAuth() || allowed.get(command.id())) {
            return true;
        }
        List<String> args = firstArgs.get(command.id());
        int index = command.parent() != null ? 2 : 1;
        if (args == null || argv.length < 2 || index >= argv.length) {
            return false;
        }
        String arg = new String(argv[index], StandardCharsets.ISO_8859_1);
        return args.stream().anyMatch(arg::equalsIgnoreCase);
    }

    /** Redis's ACLSelectorCheckKey: a pattern granting every permission the key's flags ask for matches it. */
    boolean allowsKey(byte[] key, Set<KeyFlag> flags) {
        if (allKeys) {
            return true;
        }
        int needed = (flags.contains(KeyFlag.ACCESS) ? READ : 0)
                | (flags.contains(KeyFlag.INSERT) || flags.contains(KeyFlag.DELETE) || flags.contains(KeyFlag.UPDATE)
                ? WRITE : 0);
        for (KeyPattern pattern : keys) {
            if ((pattern.permissions() & needed) == needed && Glob.matches(pattern.bytes(), key)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Redis's ACLCheckChannelAgainstList: a channel matched by a pattern, or (PSUBSCRIBE's) a
     * pattern given literally.
     */
    boolean allowsChannel(byte[] channel, boolean literal) {
        return allChannels || matchesChannel(channels, channel, literal);
    }

    static boolean matchesChannel(List<String> patterns, byte[] channel, boolean literal) {
        for (String pattern : patterns) {
            byte[] bytes = pattern.getBytes(StandardCharsets.ISO_8859_1);
            if (literal ? Arrays.equals(bytes, channel) : Glob.matches(bytes, channel)) {
                return true;
            }
        }
        return false;
    }

    /** Redis's ACLStringHasSpaces: whitespace or NUL. */
    static boolean hasSpaces(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == 0x0b || c == '\f' || c == 0) {
                return true;
            }
        }
        return false;
    }
}
