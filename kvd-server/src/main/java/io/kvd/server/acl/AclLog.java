package io.kvd.server.acl;

import io.kvd.server.protocol.Reply;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedList;
import java.util.List;
import java.util.Locale;

/**
 * Redis's ACL log: the refused commands, keys, channels and authentications, newest first, a
 * repeat within a minute (same reason, context, object and user among the 10 newest) counted on
 * its entry instead of added; at most acllog-max-len entries.
 */
public final class AclLog {
    private static final long GROUPING_MS = 60_000;
    private static final int SCANNED = 10;

    /** Why: in Redis's order of ACL_DENIED_*, which decides which of several selectors' refusals is logged. */
    public enum Reason {
        COMMAND, KEY, AUTH, CHANNEL;

        String text() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Where the refused command came from. */
    public enum Context {
        TOPLEVEL, MULTI, LUA;

        String text() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private static final class Entry {
        long count = 1;
        final Reason reason;
        final Context context;
        final byte[] object;
        final String username;
        long createdMs;
        String clientInfo;

        Entry(Reason reason, Context context, byte[] object, String username, long createdMs, String clientInfo) {
            this.reason = reason;
            this.context = context;
            this.object = object;
            this.username = username;
            this.createdMs = createdMs;
            this.clientInfo = clientInfo;
        }

        boolean sameAs(Entry other) {
            return reason == other.reason && context == other.context
                    && Math.abs(createdMs - other.createdMs) <= GROUPING_MS
                    && Arrays.equals(object, other.object) && username.equals(other.username);
        }
    }

    private final LinkedList<Entry> entries = new LinkedList<>();

    /**
     * Redis's addACLLogEntry; {@code object} is the command's full name, the key, the channel, or
     * AUTH's command name.
     */
    public void add(Reason reason, Context context, byte[] object, String username, String clientInfo, long nowMs,
                    long maxLen) {
        Entry entry = new Entry(reason, context, object, username, nowMs, clientInfo);
        Iterator<Entry> scan = entries.iterator();
        for (int i = 0; i < SCANNED && scan.hasNext(); i++) {
            Entry current = scan.next();
            if (current.sameAs(entry)) {
                scan.remove();
                entries.addFirst(current);
                current.clientInfo = clientInfo;
                current.createdMs = nowMs;
                current.count++;
                return;
            }
        }
        entries.addFirst(entry);
        while (entries.size() > maxLen) {
            entries.removeLast();
        }
    }

    public void reset() {
        entries.clear();
    }

    /** ACL LOG [count]: the newest {@code count} entries as maps of Redis's seven fields. */
    public void write(Reply reply, long count, long nowMs) {
        List<Entry> shown = new ArrayList<>(entries.subList(0, (int) Math.min(Math.max(count, 0), entries.size())));
        reply.arrayHeader(shown.size());
        for (Entry e : shown) {
            reply.mapHeader(7);
            reply.bulk("count");
            reply.integer(e.count);
            reply.bulk("reason");
            reply.bulk(e.reason.text());
            reply.bulk("context");
            reply.bulk(e.context.text());
            reply.bulk("object");
            reply.bulk(e.object);
            reply.bulk("username");
            reply.bulk(Latin1.bytes(e.username));
            reply.bulk("age-seconds");
            reply.doubleValue((double) (nowMs - e.createdMs) / 1000);
            reply.bulk("client-info");
            reply.bulk(e.clientInfo);
        }
    }
}
