package io.kvd.server.command;

import io.kvd.server.cluster.ClusterTopology;
import io.kvd.server.command.Command.Flag;
import io.kvd.server.config.KeyspaceEventTypes;
import io.kvd.server.keyspec.KeyProcedures;
import io.kvd.server.keyspec.KeyReference;
import io.kvd.server.latency.LatencyMonitor;
import io.kvd.server.monitor.Monitors;
import io.kvd.server.stats.CommandStats;
import io.kvd.server.store.WrongTypeException;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.IntStream;

import static io.kvd.server.command.Command.Flag.*;

/**
 * Every command kvd implements, with its arity, flags and key positions (as Redis's COMMAND INFO
 * reports them), and the dispatch: look up, check arity, run. Reading this file lists what kvd does.
 */
public final class CommandTable {
    private static final CommandHandler PING = ConnectionCommands::ping;
    private static final CommandHandler EXEC = TransactionCommands::exec;
    /** The commands with subcommands, whose name and arity are checked before a command is queued. */
    private static final Map<String, Subcommands> CONTAINERS = Map.ofEntries(
            Map.entry("client", ClientCommand.SUBCOMMANDS), Map.entry("config", ConfigCommand.SUBCOMMANDS),
            Map.entry("command", CommandCommand.SUBCOMMANDS), Map.entry("cluster", ClusterCommand.SUBCOMMANDS),
            Map.entry("object", ObjectCommand.SUBCOMMANDS), Map.entry("memory", MemoryCommand.SUBCOMMANDS),
            Map.entry("pubsub", PubSubCommands.SUBCOMMANDS),
            Map.entry("script", ScriptingCommands.SUBCOMMANDS), Map.entry("function", FunctionCommands.SUBCOMMANDS),
            Map.entry("xinfo", StreamCommands.XINFO), Map.entry("xgroup", StreamGroupCommands.XGROUP_SUBCOMMANDS),
            Map.entry("slowlog", SlowlogCommand.SUBCOMMANDS), Map.entry("latency", LatencyCommand.SUBCOMMANDS));
    private static final Command[] COMMANDS = {
            // connection
            command("ping", -1, flags(FAST, SENTINEL), 0, 0, 0, PING),
            command("echo", 2, flags(LOADING, STALE, FAST), 0, 0, 0, ConnectionCommands::echo),
            command("quit", -1, flags(ALLOW_BUSY, NOSCRIPT, LOADING, STALE, FAST, NO_AUTH), 0, 0, 0, ConnectionCommands::quit),
            command("select", 2, flags(LOADING, STALE, FAST), 0, 0, 0, ConnectionCommands::select),
            command("auth", -2, flags(NOSCRIPT, LOADING, STALE, FAST, NO_AUTH, ALLOW_BUSY), 0, 0, 0, ConnectionCommands::auth),
            command("hello", -1, flags(NOSCRIPT, LOADING, STALE, FAST, NO_AUTH, ALLOW_BUSY), 0, 0, 0, ConnectionCommands::hello),
            command("client", -2, flags(), 0, 0, 0, ClientCommand::client),
            command("reset", 1, flags(NOSCRIPT, LOADING, STALE, FAST, NO_AUTH, ALLOW_BUSY), 0, 0, 0, ConnectionCommands::reset),

            // transactions
            command("multi", 1, flags(NOSCRIPT, LOADING, STALE, FAST, ALLOW_BUSY), 0, 0, 0, TransactionCommands::multi),
            command("exec", 1, flags(NOSCRIPT, LOADING, STALE, SKIP_SLOWLOG), 0, 0, 0, EXEC),
            command("discard", 1, flags(NOSCRIPT, LOADING, STALE, FAST, ALLOW_BUSY), 0, 0, 0, TransactionCommands::discard),
            command("watch", -2, flags(NOSCRIPT, LOADING, STALE, FAST, ALLOW_BUSY), 1, -1, 1, TransactionCommands::watch),
            command("unwatch", 1, flags(NOSCRIPT, LOADING, STALE, FAST, ALLOW_BUSY), 0, 0, 0, TransactionCommands::unwatch),

            // pub/sub: a shard channel is a key to the cluster's slot check
            command("subscribe", -2, flags(PUBSUB, NOSCRIPT, LOADING, STALE), 0, 0, 0, PubSubCommands::subscribe),
            command("unsubscribe", -1, flags(PUBSUB, NOSCRIPT, LOADING, STALE), 0, 0, 0, PubSubCommands::unsubscribe),
            command("psubscribe", -2, flags(PUBSUB, NOSCRIPT, LOADING, STALE), 0, 0, 0, PubSubCommands::psubscribe),
            command("punsubscribe", -1, flags(PUBSUB, NOSCRIPT, LOADING, STALE), 0, 0, 0, PubSubCommands::punsubscribe),
            command("publish", 3, flags(PUBSUB, LOADING, STALE, FAST, MAY_REPLICATE), 0, 0, 0, PubSubCommands::publish),
            command("ssubscribe", -2, flags(PUBSUB, NOSCRIPT, LOADING, STALE), 1, -1, 1, PubSubCommands::ssubscribe),
            command("sunsubscribe", -1, flags(PUBSUB, NOSCRIPT, LOADING, STALE), 1, -1, 1, PubSubCommands::sunsubscribe),
            command("spublish", 3, flags(PUBSUB, LOADING, STALE, FAST, MAY_REPLICATE), 1, 1, 1, PubSubCommands::spublish),
            command("pubsub", -2, flags(), 0, 0, 0, PubSubCommands::pubsub),
            // scripting
            command("eval", -3, flags(NOSCRIPT, STALE, SKIP_MONITOR, MAY_REPLICATE, NO_MANDATORY_KEYS, MOVABLE_KEYS), 0, 0, 0, ScriptingCommands::eval),
            command("evalsha", -3, flags(NOSCRIPT, STALE, SKIP_MONITOR, MAY_REPLICATE, NO_MANDATORY_KEYS, MOVABLE_KEYS), 0, 0, 0, ScriptingCommands::evalsha),
            command("eval_ro", -3, flags(READONLY, NOSCRIPT, STALE, SKIP_MONITOR, NO_MANDATORY_KEYS, MOVABLE_KEYS), 0, 0, 0, ScriptingCommands::evalRo),
            command("evalsha_ro", -3, flags(READONLY, NOSCRIPT, STALE, SKIP_MONITOR, NO_MANDATORY_KEYS, MOVABLE_KEYS), 0, 0, 0, ScriptingCommands::evalshaRo),
            command("script", -2, flags(), 0, 0, 0, ScriptingCommands::script),
            command("fcall", -3, flags(NOSCRIPT, STALE, SKIP_MONITOR, MAY_REPLICATE, NO_MANDATORY_KEYS, MOVABLE_KEYS), 0, 0, 0, FunctionCommands::fcall),
            command("fcall_ro", -3, flags(READONLY, NOSCRIPT, STALE, SKIP_MONITOR, NO_MANDATORY_KEYS, MOVABLE_KEYS), 0, 0, 0, FunctionCommands::fcallRo),
            command("function", -2, flags(), 0, 0, 0, FunctionCommands::function),

            // strings
            command("get", 2, flags(READONLY, FAST), 1, 1, 1, StringCommands::get),
            command("set", -3, flags(WRITE, DENYOOM), 1, 1, 1, StringCommands::set),
            command("setnx", 3, flags(WRITE, DENYOOM, FAST), 1, 1, 1, StringCommands::setnx),
            command("setex", 4, flags(WRITE, DENYOOM), 1, 1, 1, StringCommands::setex),
            command("psetex", 4, flags(WRITE, DENYOOM), 1, 1, 1, StringCommands::psetex),
            command("getset", 3, flags(WRITE, DENYOOM, FAST), 1, 1, 1, StringCommands::getset),
            command("getdel", 2, flags(WRITE, FAST), 1, 1, 1, StringCommands::getdel),
            command("getex", -2, flags(WRITE, FAST), 1, 1, 1, StringCommands::getex),
            command("mget", -2, flags(READONLY, FAST), 1, -1, 1, StringCommands::mget),
            command("mset", -3, flags(WRITE, DENYOOM), 1, -1, 2, StringCommands::mset),
            command("msetnx", -3, flags(WRITE, DENYOOM), 1, -1, 2, StringCommands::msetnx),
            command("append", 3, flags(WRITE, DENYOOM, FAST), 1, 1, 1, StringCommands::append),
            command("strlen", 2, flags(READONLY, FAST), 1, 1, 1, StringCommands::strlen),
            command("getrange", 4, flags(READONLY), 1, 1, 1, StringCommands::getrange),
            command("substr", 4, flags(READONLY), 1, 1, 1, StringCommands::getrange),
            command("setrange", 4, flags(WRITE, DENYOOM), 1, 1, 1, StringCommands::setrange),
            command("incr", 2, flags(WRITE, DENYOOM, FAST), 1, 1, 1, StringCommands::incr),
            command("decr", 2, flags(WRITE, DENYOOM, FAST), 1, 1, 1, StringCommands::decr),
            command("incrby", 3, flags(WRITE, DENYOOM, FAST), 1, 1, 1, StringCommands::incrby),
            command("decrby", 3, flags(WRITE, DENYOOM, FAST), 1, 1, 1, StringCommands::decrby),
            command("incrbyfloat", 3, flags(WRITE, DENYOOM, FAST), 1, 1, 1, StringCommands::incrbyfloat),
            command("lcs", -3, flags(READONLY), 1, 2, 1, LcsCommand::lcs),

            // bitmaps
            command("setbit", 4, flags(WRITE, DENYOOM), 1, 1, 1, BitmapCommands::setbit),
            command("getbit", 3, flags(READONLY, FAST), 1, 1, 1, BitmapCommands::getbit),
            command("bitcount", -2, flags(READONLY), 1, 1, 1, BitmapCommands::bitcount),
            command("bitpos", -3, flags(READONLY), 1, 1, 1, BitmapCommands::bitpos),
            command("bitop", -4, flags(WRITE, DENYOOM), 2, -1, 1, BitmapCommands::bitop),
            command("bitfield", -2, flags(WRITE, DENYOOM), 1, 1, 1, BitfieldCommand::bitfield),
            command("bitfield_ro", -2, flags(READONLY, FAST), 1, 1, 1, BitfieldCommand::bitfieldReadOnly),

            // hyperloglogs
            command("pfadd", -2, flags(WRITE, DENYOOM, FAST), 1, 1, 1, HyperLogLogCommands::pfadd),
            // Read-only, though writing the cached cardinality back is propagated (it logs itself).
            command("pfcount", -2, flags(READONLY, MAY_REPLICATE), 1, -1, 1, HyperLogLogCommands::pfcount),
            command("pfmerge", -2, flags(WRITE, DENYOOM), 1, -1, 1, HyperLogLogCommands::pfmerge),
            command("pfdebug", 3, flags(WRITE, DENYOOM, ADMIN), 2, 2, 1, HyperLogLogCommands::pfdebug),
            command("pfselftest", 1, flags(ADMIN), 0, 0, 0, HyperLogLogCommands::pfselftest),

            // hashes
            command("hset", -4, flags(WRITE, DENYOOM, FAST), 1, 1, 1, HashCommands::hset),
            command("hsetnx", 4, flags(WRITE, DENYOOM, FAST), 1, 1, 1, HashCommands::hsetnx),
            command("hget", 3, flags(READONLY, FAST), 1, 1, 1, HashCommands::hget),
            command("hmset", -4, flags(WRITE, DENYOOM, FAST), 1, 1, 1, HashCommands::hmset),
            command("hmget", -3, flags(READONLY, FAST), 1, 1, 1, HashCommands::hmget),
            command("hgetall", 2, flags(READONLY), 1, 1, 1, HashCommands::hgetall),
            command("hdel", -3, flags(WRITE, FAST), 1, 1, 1, HashCommands::hdel),
            command("hlen", 2, flags(READONLY, FAST), 1, 1, 1, HashCommands::hlen),
            command("hexists", 3, flags(READONLY, FAST), 1, 1, 1, HashCommands::hexists),
            command("hkeys", 2, flags(READONLY), 1, 1, 1, HashCommands::hkeys),
            command("hvals", 2, flags(READONLY), 1, 1, 1, HashCommands::hvals),
            command("hincrby", 4, flags(WRITE, DENYOOM, FAST), 1, 1, 1, HashCommands::hincrby),
            command("hincrbyfloat", 4, flags(WRITE, DENYOOM, FAST), 1, 1, 1, HashCommands::hincrbyfloat),
            command("hstrlen", 3, flags(READONLY, FAST), 1, 1, 1, HashCommands::hstrlen),
            command("hrandfield", -2, flags(READONLY), 1, 1, 1, HashCommands::hrandfield),
            command("hscan", -3, flags(READONLY), 1, 1, 1, HashCommands::hscan),

            // sets
            command("sadd", -3, flags(WRITE, DENYOOM, FAST), 1, 1, 1, SetCommands::sadd),
            command("srem", -3, flags(WRITE, FAST), 1, 1, 1, SetCommands::srem),
            command("smembers", 2, flags(READONLY), 1, 1, 1, SetCommands::smembers),
            command("sismember", 3, flags(READONLY, FAST), 1, 1, 1, SetCommands::sismember),
            command("smismember", -3, flags(READONLY, FAST), 1, 1, 1, SetCommands::smismember),
            command("scard", 2, flags(READONLY, FAST), 1, 1, 1, SetCommands::scard),
            command("spop", -2, flags(WRITE, FAST), 1, 1, 1, SetCommands::spop),
            command("srandmember", -2, flags(READONLY), 1, 1, 1, SetCommands::srandmember),
            command("smove", 4, flags(WRITE, FAST), 1, 2, 1, SetCommands::smove),
            command("sinter", -2, flags(READONLY), 1, -1, 1, SetCommands::sinter),
            command("sinterstore", -3, flags(WRITE, DENYOOM), 1, -1, 1, SetCommands::sinterstore),
            command("sintercard", -3, flags(READONLY, MOVABLE_KEYS), 0, 0, 0, SetCommands::sintercard),
            command("sunion", -2, flags(READONLY), 1, -1, 1, SetCommands::sunion),
            command("sunionstore", -3, flags(WRITE, DENYOOM), 1, -1, 1, SetCommands::sunionstore),
            command("sdiff", -2, flags(READONLY), 1, -1, 1, SetCommands::sdiff),
            command("sdiffstore", -3, flags(WRITE, DENYOOM), 1, -1, 1, SetCommands::sdiffstore),
            command("sscan", -3, flags(READONLY), 1, 1, 1, SetCommands::sscan),

            // lists
            command("lpush", -3, flags(WRITE, DENYOOM, FAST), 1, 1, 1, ListCommands::lpush),
            command("rpush", -3, flags(WRITE, DENYOOM, FAST), 1, 1, 1, ListCommands::rpush),
            command("lpushx", -3, flags(WRITE, DENYOOM, FAST), 1, 1, 1, ListCommands::lpushx),
            command("rpushx", -3, flags(WRITE, DENYOOM, FAST), 1, 1, 1, ListCommands::rpushx),
            command("lpop", -2, flags(WRITE, FAST), 1, 1, 1, ListCommands::lpop),
            command("rpop", -2, flags(WRITE, FAST), 1, 1, 1, ListCommands::rpop),
            command("llen", 2, flags(READONLY, FAST), 1, 1, 1, ListCommands::llen),
            command("lindex", 3, flags(READONLY), 1, 1, 1, ListCommands::lindex),
            command("lset", 4, flags(WRITE, DENYOOM), 1, 1, 1, ListCommands::lset),
            command("linsert", 5, flags(WRITE, DENYOOM), 1, 1, 1, ListCommands::linsert),
            command("lrange", 4, flags(READONLY), 1, 1, 1, ListCommands::lrange),
            command("ltrim", 4, flags(WRITE), 1, 1, 1, ListCommands::ltrim),
            command("lrem", 4, flags(WRITE), 1, 1, 1, ListCommands::lrem),
            command("lpos", -3, flags(READONLY), 1, 1, 1, ListCommands::lpos),
            command("lmove", 5, flags(WRITE, DENYOOM), 1, 2, 1, ListCommands::lmove),
            command("rpoplpush", 3, flags(WRITE, DENYOOM), 1, 2, 1, ListCommands::rpoplpush),
            command("lmpop", -4, flags(WRITE, MOVABLE_KEYS), 0, 0, 0, ListCommands::lmpop),
            command("blpop", -3, flags(WRITE, NOSCRIPT, BLOCKING), 1, -2, 1, BlockingCommands::blpop),
            command("brpop", -3, flags(WRITE, NOSCRIPT, BLOCKING), 1, -2, 1, BlockingCommands::brpop),
            command("brpoplpush", 4, flags(WRITE, DENYOOM, NOSCRIPT, BLOCKING), 1, 2, 1, BlockingCommands::brpoplpush),
            command("blmove", 6, flags(WRITE, DENYOOM, NOSCRIPT, BLOCKING), 1, 2, 1, BlockingCommands::blmove),
            command("blmpop", -5, flags(WRITE, BLOCKING, MOVABLE_KEYS), 0, 0, 0, BlockingCommands::blmpop),
            // sorted sets
            command("zadd", -4, flags(WRITE, DENYOOM, FAST), 1, 1, 1, SortedSetCommands::zadd),
            command("zincrby", 4, flags(WRITE, DENYOOM, FAST), 1, 1, 1, SortedSetCommands::zincrby),
            command("zcard", 2, flags(READONLY, FAST), 1, 1, 1, SortedSetCommands::zcard),
            command("zscore", 3, flags(READONLY, FAST), 1, 1, 1, SortedSetCommands::zscore),
            command("zmscore", -3, flags(READONLY, FAST), 1, 1, 1, SortedSetCommands::zmscore),
            command("zrank", 3, flags(READONLY, FAST), 1, 1, 1, SortedSetCommands::zrank),
            command("zrevrank", 3, flags(READONLY, FAST), 1, 1, 1, SortedSetCommands::zrevrank),
            command("zrem", -3, flags(WRITE, FAST), 1, 1, 1, SortedSetCommands::zrem),
            command("zrange", -4, flags(READONLY), 1, 1, 1, SortedSetCommands::zrange),
            command("zrevrange", -4, flags(READONLY), 1, 1, 1, SortedSetCommands::zrevrange),
            command("zrangebyscore", -4, flags(READONLY), 1, 1, 1, SortedSetCommands::zrangebyscore),
            command("zrevrangebyscore", -4, flags(READONLY), 1, 1, 1, SortedSetCommands::zrevrangebyscore),
            command("zrangebylex", -4, flags(READONLY), 1, 1, 1, SortedSetCommands::zrangebylex),
            command("zrevrangebylex", -4, flags(READONLY), 1, 1, 1, SortedSetCommands::zrevrangebylex),
            command("zcount", 4, flags(READONLY, FAST), 1, 1, 1, SortedSetCommands::zcount),
            command("zlexcount", 4, flags(READONLY, FAST), 1, 1, 1, SortedSetCommands::zlexcount),
            command("zpopmin", -2, flags(WRITE, FAST), 1, 1, 1, SortedSetCommands::zpopmin),
            command("zpopmax", -2, flags(WRITE, FAST), 1, 1, 1, SortedSetCommands::zpopmax),
            command("zremrangebyrank", 4, flags(WRITE), 1, 1, 1, SortedSetCommands::zremrangebyrank),
            command("zremrangebyscore", 4, flags(WRITE), 1, 1, 1, SortedSetCommands::zremrangebyscore),
            command("zremrangebylex", 4, flags(WRITE), 1, 1, 1, SortedSetCommands::zremrangebylex),
            command("zrangestore", -5, flags(WRITE, DENYOOM), 1, 2, 1, SortedSetCommands::zrangestore),
            command("zrandmember", -2, flags(READONLY), 1, 1, 1, SortedSetCommands::zrandmember),
            command("zscan", -3, flags(READONLY), 1, 1, 1, SortedSetCommands::zscan),
            command("zunion", -3, flags(READONLY, MOVABLE_KEYS), 0, 0, 0, SortedSetCommands::zunion),
            command("zinter", -3, flags(READONLY, MOVABLE_KEYS), 0, 0, 0, SortedSetCommands::zinter),
            command("zdiff", -3, flags(READONLY, MOVABLE_KEYS), 0, 0, 0, SortedSetCommands::zdiff),
            // COMMAND INFO names the destination (1 1 1); its getkeys function adds the movable keys.
            command("zunionstore", -4, flags(WRITE, DENYOOM, MOVABLE_KEYS), 1, 1, 1, SortedSetCommands::zunionstore),
            command("zinterstore", -4, flags(WRITE, DENYOOM, MOVABLE_KEYS), 1, 1, 1, SortedSetCommands::zinterstore),
            command("zdiffstore", -4, flags(WRITE, DENYOOM, MOVABLE_KEYS), 1, 1, 1, SortedSetCommands::zdiffstore),
            command("zintercard", -3, flags(READONLY, MOVABLE_KEYS), 0, 0, 0, SortedSetCommands::zintercard),
            command("zmpop", -4, flags(WRITE, MOVABLE_KEYS), 0, 0, 0, SortedSetCommands::zmpop),
            command("bzpopmin", -3, flags(WRITE, NOSCRIPT, BLOCKING, FAST), 1, -2, 1, BlockingCommands::bzpopmin),
            command("bzpopmax", -3, flags(WRITE, NOSCRIPT, BLOCKING, FAST), 1, -2, 1, BlockingCommands::bzpopmax),
            command("bzmpop", -5, flags(WRITE, BLOCKING, MOVABLE_KEYS), 0, 0, 0, BlockingCommands::bzmpop),
            // geo: positions as sorted-set scores
            command("geoadd", -5, flags(WRITE, DENYOOM), 1, 1, 1, GeoCommands::geoadd),
            command("geopos", -2, flags(READONLY), 1, 1, 1, GeoCommands::geopos),
            command("geohash", -2, flags(READONLY), 1, 1, 1, GeoCommands::geohash),
            command("geodist", -4, flags(READONLY), 1, 1, 1, GeoCommands::geodist),
            // COMMAND INFO names the source (1 1 1); its getkeys function adds the STORE or STOREDIST key.
            command("georadius", -6, flags(WRITE, DENYOOM, MOVABLE_KEYS), 1, 1, 1, GeoCommands::georadius),
            command("georadiusbymember", -5, flags(WRITE, DENYOOM, MOVABLE_KEYS), 1, 1, 1, GeoCommands::georadiusbymember),
            command("georadius_ro", -6, flags(READONLY), 1, 1, 1, GeoCommands::georadiusRo),
            command("georadiusbymember_ro", -5, flags(READONLY), 1, 1, 1, GeoCommands::georadiusbymemberRo),
            command("geosearch", -7, flags(READONLY), 1, 1, 1, GeoCommands::geosearch),
            command("geosearchstore", -8, flags(WRITE, DENYOOM), 1, 2, 1, GeoCommands::geosearchstore),

            // streams
            command("xadd", -5, flags(WRITE, DENYOOM, FAST), 1, 1, 1, StreamCommands::xadd),
            command("xlen", 2, flags(READONLY, FAST), 1, 1, 1, StreamCommands::xlen),
            command("xrange", -4, flags(READONLY), 1, 1, 1, StreamCommands::xrange),
            command("xrevrange", -4, flags(READONLY), 1, 1, 1, StreamCommands::xrevrange),
            command("xdel", -3, flags(WRITE, FAST), 1, 1, 1, StreamCommands::xdel),
            command("xtrim", -4, flags(WRITE), 1, 1, 1, StreamCommands::xtrim),
            command("xsetid", -3, flags(WRITE, DENYOOM, FAST), 1, 1, 1, StreamCommands::xsetid),
            command("xread", -4, flags(READONLY, BLOCKING, MOVABLE_KEYS), 0, 0, 0, StreamCommands::xread),
            command("xinfo", -2, flags(), 0, 0, 0, StreamCommands::xinfo),
            command("xgroup", -2, flags(), 0, 0, 0, StreamGroupCommands::xgroupContainer),
            command("xreadgroup", -7, flags(WRITE, BLOCKING, MOVABLE_KEYS), 0, 0, 0,
                    StreamGroupCommands::xreadgroup),
            command("xack", -4, flags(WRITE, FAST), 1, 1, 1, StreamGroupCommands::xack),
            command("xpending", -3, flags(READONLY), 1, 1, 1, StreamGroupCommands::xpending),
            command("xclaim", -6, flags(WRITE, FAST), 1, 1, 1, StreamGroupCommands::xclaim),
            command("xautoclaim", -6, flags(WRITE, FAST), 1, 1, 1, StreamGroupCommands::xautoclaim),
            // sort: COMMAND INFO names the sorted key (1 1 1); its getkeys function adds STORE's destination.
            command("sort", -2, flags(WRITE, DENYOOM, MOVABLE_KEYS), 1, 1, 1, SortCommand::sort),
            command("sort_ro", -2, flags(READONLY, MOVABLE_KEYS), 1, 1, 1, SortCommand::sortRo),

            // keys
            command("del", -2, flags(WRITE), 1, -1, 1, KeyCommands::del),
            command("unlink", -2, flags(WRITE, FAST), 1, -1, 1, KeyCommands::unlink),
            command("exists", -2, flags(READONLY, FAST), 1, -1, 1, KeyCommands::exists),
            command("touch", -2, flags(READONLY, FAST), 1, -1, 1, KeyCommands::touch),
            command("type", 2, flags(READONLY, FAST), 1, 1, 1, KeyCommands::type),
            command("rename", 3, flags(WRITE), 1, 2, 1, KeyCommands::rename),
            command("renamenx", 3, flags(WRITE, FAST), 1, 2, 1, KeyCommands::renamenx),
            command("keys", 2, flags(READONLY), 0, 0, 0, KeyCommands::keys),
            command("scan", -2, flags(READONLY), 0, 0, 0, KeyCommands::scan),
            command("randomkey", 1, flags(READONLY), 0, 0, 0, KeyCommands::randomkey),
            command("move", 3, flags(WRITE, FAST), 1, 1, 1, KeyCommands::move),
            command("copy", -3, flags(WRITE, DENYOOM), 1, 2, 1, KeyCommands::copy),
            command("dump", 2, flags(READONLY), 1, 1, 1, DumpCommands::dump),
            command("restore", -4, flags(WRITE, DENYOOM), 1, 1, 1, DumpCommands::restore),
            command("object", -2, flags(), 0, 0, 0, ObjectCommand::object),
            command("memory", -2, flags(), 0, 0, 0, MemoryCommand::memory),

            // expiry
            command("expire", -3, flags(WRITE, FAST), 1, 1, 1, ExpireCommands::expire),
            command("pexpire", -3, flags(WRITE, FAST), 1, 1, 1, ExpireCommands::pexpire),
            command("expireat", -3, flags(WRITE, FAST), 1, 1, 1, ExpireCommands::expireat),
            command("pexpireat", -3, flags(WRITE, FAST), 1, 1, 1, ExpireCommands::pexpireat),
            command("ttl", 2, flags(READONLY, FAST), 1, 1, 1, ExpireCommands::ttl),
            command("pttl", 2, flags(READONLY, FAST), 1, 1, 1, ExpireCommands::pttl),
            command("expiretime", 2, flags(READONLY, FAST), 1, 1, 1, ExpireCommands::expiretime),
            command("pexpiretime", 2, flags(READONLY, FAST), 1, 1, 1, ExpireCommands::pexpiretime),
            command("persist", 2, flags(WRITE, FAST), 1, 1, 1, ExpireCommands::persist),

            // server
            command("time", 1, flags(LOADING, STALE, FAST), 0, 0, 0, ServerCommands::time),
            command("dbsize", 1, flags(READONLY, FAST), 0, 0, 0, ServerCommands::dbsize),
            command("flushdb", -1, flags(WRITE), 0, 0, 0, ServerCommands::flushdb),
            command("flushall", -1, flags(WRITE), 0, 0, 0, ServerCommands::flushall),
            command("swapdb", 3, flags(WRITE, FAST), 0, 0, 0, ServerCommands::swapdb),
            command("shutdown", -1, flags(ADMIN, NOSCRIPT, LOADING, STALE, NO_MULTI, ALLOW_BUSY), 0, 0, 0, ServerCommands::shutdown),
            command("info", -1, flags(LOADING, STALE), 0, 0, 0, InfoCommand::info),
            command("save", 1, flags(ADMIN, NOSCRIPT, NO_ASYNC_LOADING, NO_MULTI), 0, 0, 0, PersistenceCommands::save),
            command("bgsave", -1, flags(ADMIN, NOSCRIPT, NO_ASYNC_LOADING), 0, 0, 0, PersistenceCommands::bgsave),
            command("lastsave", 1, flags(LOADING, STALE, FAST), 0, 0, 0, PersistenceCommands::lastsave),
            command("debug", -2, flags(ADMIN, NOSCRIPT, LOADING, STALE, PROTECTED), 0, 0, 0, DebugCommand::debug),
            command("slowlog", -2, flags(), 0, 0, 0, SlowlogCommand::slowlog),
            command("latency", -2, flags(), 0, 0, 0, LatencyCommand::latency),
            command("config", -2, flags(), 0, 0, 0, ConfigCommand::config),
            command("command", -1, flags(LOADING, STALE), 0, 0, 0, CommandCommand::command),
            command("bgrewriteaof", 1, flags(ADMIN, NOSCRIPT, NO_ASYNC_LOADING), 0, 0, 0, ServerCommands::bgrewriteaof),
            command("monitor", 1, flags(ADMIN, NOSCRIPT, LOADING, STALE), 0, 0, 0, ServerCommands::monitor),
            command("lolwut", -1, flags(READONLY, FAST), 0, 0, 0, LolwutCommand::lolwut),

            // cluster
            command("cluster", -2, flags(), 0, 0, 0, ClusterCommand::cluster),
            command("readonly", 1, flags(LOADING, STALE, FAST), 0, 0, 0, ClusterCommand::readonlyOrReadwrite),
            command("readwrite", 1, flags(LOADING, STALE, FAST), 0, 0, 0, ClusterCommand::readonlyOrReadwrite),

    };

    private static final List<Command> ALL = List.of(COMMANDS);

    private final Command[] slots;

    public CommandTable() {
        slots = new Command[Integer.highestOneBit(COMMANDS.length * 4) * 2];
        for (Command c : COMMANDS) {
            byte[] name = Args.bytes(c.name());
            int i = hash(name) & (slots.length - 1);
            while (slots[i] != null) {
                i = (i + 1) & (slots.length - 1);
            }
            slots[i] = c;
        }
    }

    /** Every command, in table order. */
    public static List<Command> all() {
        return ALL;
    }

    /** The command named by {@code name} in any case, or null; allocates nothing. */
    public Command lookup(byte[] name) {
        int i = hash(name) & (slots.length - 1);
        for (Command c; (c = slots[i]) != null; i = (i + 1) & (slots.length - 1)) {
            if (Args.is(name, c.name())) {
                return c;
            }
        }
        return null;
    }

    /**
     * Runs one command for the client, replying with Redis's error for an unknown command or a
     * wrong argument count. Returns the command that ran, or null.
     */
    public Command call(Client client, byte[][] argv) {
        Command command = lookup(argv[0]);
        if (command == null) {
            client.beforeCommand();
            refuse(client, null, argv, unknownCommand(argv));
            client.afterCommand();
            return null;
        }
        return call(client, command, argv);
    }

    /**
     * Runs {@code command}, the result of {@link #lookup} for {@code argv[0]}, for a caller that
     * looked it up itself (the AOF replay, which refuses unknown commands): one lookup per record.
     */
    public Command call(Client client, Command command, byte[][] argv) {
        client.beforeCommand();
        try {
            return checkAndRun(client, command, argv);
        } finally {
            client.afterCommand();
        }
    }

    /** Redis's processCommand: the checks that may refuse a command, then queuing or running it. */
    private Command checkAndRun(Client client, Command command, byte[][] argv) {
        if (!command.arityMatches(argv.length)) {
            refuse(client, command, argv, Errors.wrongArity(command.name()));
            return null;
        }
        // As Redis's lookupCommand, before any other check: a container's subcommand is a command
        // of its own, refused unknown or with the wrong argument count.
        Subcommands subcommands = CONTAINERS.get(command.name());
        if (subcommands != null && argv.length > 1) {
            String refusal = subcommands.refusal(argv);
            if (refusal != null) {
                refuse(client, subcommands.lookup(argv) == null ? null : command, argv, refusal);
                return null;
            }
        }
        if (!client.isAuthenticated() && !command.has(Flag.NO_AUTH)) {
            refuse(client, command, argv, DefaultUser.NOAUTH);
            return null;
        }
        Transaction transaction = client.transaction();
        boolean execOfTransaction = transaction != null && command.handler() == EXEC;
        if (transaction != null && command.has(NO_MULTI)) {
            refuse(client, command, argv, "ERR Command not allowed inside a transaction");
            return null;
        }
        // As Redis's processCommand: after authentication, before anything else can refuse.
        ClusterTopology cluster = client.server().config().cluster();
        if (cluster != null && !client.obeysEverySlot()) {
            String redirection = execOfTransaction
                    ? redirection(cluster, transaction) : redirection(cluster, command, argv);
            if (redirection != null) {
                // Redis discards the transaction a redirected EXEC would have run, and answers the redirection.
                if (execOfTransaction) {
                    client.discardTransaction();
                } else if (transaction != null) {
                    transaction.refuseExec();
                }
                client.reply().error(redirection);
                client.server().commandStats().rejected(asLookedUp(command, argv).name());
                return null;
            }
        }
        CommandLog log = client.server().commandLog();
        // As Redis's processCommand: a failed BGSAVE (with save points and stop-writes-on-bgsave-error)
        // or a failing AOF refuses writes (a write subcommand such as XGROUP CREATE or FUNCTION
        // LOAD, and PING, so monitors notice), EXEC of a transaction with a write among them included.
        String diskError = client.server().rdb().refusesWrites() ? PersistenceCommands.BGSAVE_FAILED
                : log.failure() != null ? Errors.aofFailing(log.failure()) : null;
        if (diskError != null && (asLookedUp(command, argv).has(WRITE) || command.handler() == PING
                || execOfTransaction && transaction.hasWrites())) {
            refuse(client, command, argv, diskError);
            return null;
        }
        // As Redis's processCommand for a RESP2 client: subscribed, it may only (un)subscribe, PING, QUIT, RESET.
        if (client.isSubscribed() && !allowedWhileSubscribed(command)) {
            refuse(client, command, argv, notAllowedWhileSubscribed(command, argv));
            return null;
        }
        // As Redis's processCommand: a monitoring client is a replica to Redis, kept off the keyspace.
        if (client.isMonitoring() && touchesKeyspace(asLookedUp(command, argv))) {
            refuse(client, command, argv, "ERR Replica can't interact with the keyspace");
            return null;
        }
        // As Redis's processCommand: past busy-reply-threshold a script lets clients in, but only
        // to stop it, to shut the server down, or to go on with their connection and transaction.
        LuaScripts busy = client.server().busyScript();
        if (busy != null && !allowedWhileBusy(command, argv)) {
            refuse(client, command, argv, busy.busyError());
            return null;
        }
        // As Redis's processCommand: a paused client's command waits, before it could be queued.
        ClientPause pause = client.server().pause();
        if (pause.isPaused() && pause.holds(client, command, argv)) {
            pause.hold(client, argv);
            return null;
        }
        // As Redis's processCommand (not call()): a command EXEC runs leaves CLIENT LIST's cmd at exec.
        client.interacted(command.name(), client.keyspace().now());
        if (transaction != null && !TransactionCommands.runsWhileQueuing(command)) {
            // As Redis 7.0's queueMultiCommand: a transaction EXEC will refuse keeps nothing more.
            if (!transaction.isRefused() && !client.isWatchedKeyChanged()) {
                transaction.queue(command, argv);
            }
            client.reply().simpleString("QUEUED");
            return command;
        }
        if (runsScript(client, command) && client.connection().putOffScript(argv)) {
            return command;
        }
        run(client, command, argv);
        // As Redis's processCommand: clients blocked on keys this command (or EXEC) made ready are served after it.
        BlockedClients blocked = client.server().blockedClients();
        if (!blocked.isEmpty()) {
            blocked.serveReadyKeys();
        }
        return command;
    }

    /**
     * Redis's call(): runs a command that passed the checks (or one EXEC runs), logs it if it was a
     * write that changed the keyspace, counts it.
     */
    static Command run(Client client, Command command, byte[][] argv) {
        CommandLog log = client.server().commandLog();
        boolean write = command.has(WRITE);
        long changesBefore = client.keyspace().changes();
        if (client.events().isEnabled(KeyspaceEventTypes.KEY_MISS)) {
            announceMisses(client, command, argv);
        }
        ServerState server = client.server();
        CommandStats stats = server.commandStats();
        stats.starting();
        // INFO's keyspace hits and misses: a read-only command's lookups, as Redis's lookupKeyRead.
        boolean outerCountsReads = server.databases().countReads(command.has(READONLY));
        long started = System.nanoTime();
        try {
            command.handler().execute(client, argv);
        } catch (CommandError | WrongTypeException e) {
            client.reply().error(e.getMessage());
        } finally {
            server.databases().countReads(outerCountsReads);
        }
        long nanos = System.nanoTime() - started;
        // The subcommand when a container ran one: its flags and counters are the ones that count.
        Command looked = asLookedUp(command, argv);
        byte[][] shown = client.takeShownArgv(argv);
        logIfSlow(client, command, shown, nanos / 1000);
        sampleLatency(client, looked, nanos / 1000);
        // As Redis's call(): not while loading the AOF (isAOFLoadingContext).
        if (!client.isReplayingAof()) {
            stats.ran(stats.of(looked.name()), nanos, client.blockedOn() != null, server.config().latencyTracking());
        }
        // Redis 7.0's call(): monitors see a command once it ran, as redacted, unless it is an
        // admin command or one that feeds them itself (a script, before its commands).
        Monitors monitors = server.monitors();
        if (!monitors.isEmpty() && shownToMonitors(client, looked)) {
            feedMonitors(client, shown);
        }
        // Redis's call(): a command that changed the keyspace is propagated, as rewritten by the
        // command; a read-only one only if it asked to be (PFCOUNT writing its cache back).
        byte[][] record = client.takeLogRecord();
        List<byte[][]> alsoLogged = client.takeAlsoLogged();
        if (alsoLogged != null) {
            log.appendAll(client.db(), alsoLogged);
            server.wroteChanges();
        } else if ((write || record != null) && client.keyspace().changes() != changesBefore) {
            log.append(client.db(), record != null ? record : argv);
            server.wroteChanges();
        }
        // Counted once run, as Redis's call() does: INFO does not count itself, RESETSTAT does.
        client.server().stats().commandsProcessed++;
        return command;
    }

    /** Sends the command {@code client} runs to the monitoring clients, EVAL and FCALL before their script runs. */
    static void feedMonitors(Client client, byte[][] argv) {
        Monitors monitors = client.server().monitors();
        if (!monitors.isEmpty()) {
            // As Redis's replicationFeedMonitors: a UNIX socket's client is "unix:<path>".
            String source = client.isScriptCaller() ? Monitors.LUA
                    : client.connection().isUnixSocket() ? "unix:" + client.server().config().unixsocket()
                    : client.connection().remoteAddress();
            monitors.feed(client.db(), source, argv);
        }
    }

    /**
     * Whether monitors see a command (or subcommand) that ran: not ADMIN or SKIP_MONITOR ones,
     * nothing the AOF's replay runs. An unknown subcommand never gets here: it is refused first.
     */
    private static boolean shownToMonitors(Client client, Command looked) {
        return !looked.has(ADMIN) && !looked.has(SKIP_MONITOR) && !client.isReplayingAof();
    }

    /** Redis's read, write and may-replicate commands, which a replica (a monitor) may not send. */
    private static boolean touchesKeyspace(Command command) {
        return command.has(READONLY) || command.has(WRITE) || command.has(MAY_REPLICATE);
    }

    /**
     * Redis's call() and slowlogPushCurrentCommand: a command that ran at least
     * slowlog-log-slower-than microseconds goes to the slow log, unless it is one Redis never logs
     * (EXEC, whose commands are logged one by one) or a script's command (the script is logged).
     */
    private static void logIfSlow(Client client, Command command, byte[][] argv, long micros) {
        ServerState server = client.server();
        long threshold = server.config().slowlogLogSlowerThan();
        if (threshold < 0 || micros < threshold || command.has(SKIP_SLOWLOG) || client.isScriptCaller()) {
            return;
        }
        Client.Connection connection = client.connection();
        server.slowLog().push(argv, micros, server.databases().now() / 1000,
                connection == null ? "" : connection.remoteAddress(), client.name(), server.config().slowlogMaxLen());
    }

    /**
     * Redis's call(): every command that ran (EXEC, and a script's commands, too) is a latency
     * sample, "fast-command" for a FAST one (a container's subcommand has its own flags), unless
     * it blocked (Redis samples it when it is served) or is replayed from the AOF.
     */
    private static void sampleLatency(Client client, Command looked, long micros) {
        LatencyMonitor monitor = client.server().latencyMonitor();
        long ms = micros / 1000;
        if (monitor.exceedsThreshold(ms) && !client.isBlocked() && !client.isReplayingAof()) {
            monitor.addSample(looked.has(FAST) ? "fast-command" : "command", ms);
        }
    }

    /** The subcommands of a container command (CLIENT, SCRIPT, ...), or null for any other command. */
    static Subcommands subcommands(Command command) {
        return CONTAINERS.get(command.name());
    }

    /**
     * Redis's lookupKeyRead announces a key it did not find (keymiss); kvd's keyspace does not know
     * a read from a write, so the keys a command reads that way are looked up here, before it runs:
     * every key of a read-only command, and the sources of the writes that read them so.
     */
    private static void announceMisses(Client client, Command command, byte[][] argv) {
        int[] positions;
        switch (command.name()) {
            case "getex", "copy", "sort" -> positions = new int[] {1};
            // Redis's objectCommandLookup reads with LOOKUP_NONOTIFY; MEMORY USAGE finds its key in the dict.
            case "object", "memory" -> positions = new int[0];
            case "bitop" -> positions = range(3, argv.length - 1, 1);
            case "pfmerge" -> positions = range(1, argv.length - 1, 1);
            case "zrangestore", "geosearchstore" -> positions = new int[] {2};
            case "georadius", "georadiusbymember" -> positions = new int[] {1};
            case "sinterstore", "sunionstore", "sdiffstore" -> positions = range(2, argv.length - 1, 1);
            case "zunionstore", "zinterstore", "zdiffstore" -> {
                // Redis's getkeys function lists the destination last.
                int[] keys = command.movableKeys().positions(argv);
                positions = keys.length == 0 ? keys : Arrays.copyOfRange(keys, 0, keys.length - 1);
            }
            default -> {
                // XINFO's subcommands read their key as XRANGE does.
                Command reader = asLookedUp(command, argv);
                if (!reader.has(READONLY)) {
                    return;
                }
                positions = keyPositions(reader, argv);
            }
        }
        for (int position : positions) {
            if (position < argv.length && !client.keyspace().exists(argv[position])) {
                client.events().notify(KeyspaceEventTypes.KEY_MISS, "keymiss", argv[position], client.db());
            }
        }
    }

    private static int[] range(int first, int last, int step) {
        return IntStream.iterate(first, i -> i <= last, i -> i + step).toArray();
    }

    /**
     * Redis's rejectCommand: the error reply of a command refused before it ran, which inside MULTI
     * makes EXEC fail. A refused EXEC discards the transaction and says why, as EXECABORT even
     * outside MULTI (Redis's execCommandAbort).
     */
    private static void refuse(Client client, Command command, byte[][] argv, String error) {
        if (command != null) {
            client.server().commandStats().rejected(asLookedUp(command, argv).name());
        }
        if (command != null && command.handler() == EXEC) {
            client.discardTransaction();
            // A generic error's "ERR " is not part of the reason.
            String reason = error.startsWith("ERR ") ? error.substring(4) : error;
            client.reply().error("EXECABORT Transaction discarded because of: " + reason);
            return;
        }
        if (client.transaction() != null) {
            client.transaction().refuseExec();
        }
        client.reply().error(error);
    }

    /** ALLOW_BUSY commands and subcommands (Redis's lookup refused unknown ones before). */
    private static boolean allowedWhileBusy(Command command, byte[][] argv) {
        return command.has(ALLOW_BUSY) || asLookedUp(command, argv).has(ALLOW_BUSY);
    }

    /** Whether running {@code command} now runs Lua: a script or a function, or EXEC of a transaction holding one. */
    private static boolean runsScript(Client client, Command command) {
        if (command.handler() == EXEC) {
            Transaction transaction = client.transaction();
            return transaction != null && transaction.queued().stream().anyMatch(q -> callsLua(q.command()));
        }
        return callsLua(command);
    }

    private static boolean callsLua(Command command) {
        return switch (command.name()) {
            case "eval", "evalsha", "eval_ro", "evalsha_ro", "fcall", "fcall_ro" -> true;
            default -> false;
        };
    }

    private static boolean allowedWhileSubscribed(Command command) {
        return switch (command.name()) {
            case "subscribe", "unsubscribe", "psubscribe", "punsubscribe", "ssubscribe", "sunsubscribe", "ping",
                 "quit", "reset" -> true;
            default -> false;
        };
    }

    /**
     * Redis's refusal of a command in the subscribed context, naming a subcommand as
     * {@code client|list}; an unknown subcommand or its wrong arity is refused as such first.
     */
    private static String notAllowedWhileSubscribed(Command command, byte[][] argv) {
        String name = command.name();
        Subcommands subcommands = CONTAINERS.get(name);
        if (subcommands != null) {
            String refusal = subcommands.refusal(argv);
            if (refusal != null) {
                return refusal;
            }
            name += "|" + Args.utf8(argv[1]).toLowerCase(Locale.ROOT);
        }
        return "ERR Can't execute '" + name + "': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET"
                + " are allowed in this context";
    }

    /** Redis's getNodeByQuery for EXEC: the keys of every queued command together, one slot served here. */
    private static String redirection(ClusterTopology cluster, Transaction transaction) {
        List<byte[]> keys = new ArrayList<>();
        for (Transaction.Queued queued : transaction.queued()) {
            byte[][] argv = queued.argv();
            for (int position : keyPositions(asLookedUp(queued.command(), argv), argv)) {
                keys.add(argv[position]);
            }
        }
        return keys.isEmpty() ? null : cluster.redirection(keys.toArray(new byte[0][]), 0, -1, 1);
    }

    /**
     * The slot check's error for the command's keys, found in the request (as Redis's getkeys_proc
     * does where COMMAND INFO's positions miss some, SORT's STORE) or at fixed positions; null if
     * served here.
     */
    static String redirection(ClusterTopology cluster, Command request, byte[][] argv) {
        Command command = asLookedUp(request, argv);
        if (command.movableKeys() != null) {
            return cluster.redirection(argv, command.movableKeys().positions(argv));
        }
        // SUNSUBSCRIBE without arguments names no shard channel.
        return command.firstKey() > 0 && argv.length > command.firstKey()
                ? cluster.redirection(argv, command.firstKey(), command.lastKey(), command.step()) : null;
    }

    /**
     * Redis's lookupCommand for a full request (COMMAND GETKEYS's): the command, or the subcommand
     * its second argument names if it is a container; null if either is unknown.
     */
    static Command lookupFull(byte[][] request) {
        Command command = ALL.stream().filter(c -> Args.is(request[0], c.name())).findFirst().orElse(null);
        Subcommands subcommands = command == null ? null : CONTAINERS.get(command.name());
        return subcommands == null || request.length == 1 ? command : subcommands.lookup(request);
    }

    /** Where a request's keys are: its command's key finder's positions, or COMMAND INFO's first, last and step. */
    private static int[] keyPositions(Command command, byte[][] argv) {
        if (command.movableKeys() != null) {
            return command.movableKeys().positions(argv);
        }
        return command.firstKey() > 0 ? range(command.firstKey(),
                command.lastKey() < 0 ? argv.length + command.lastKey() : command.lastKey(), command.step())
                : new int[0];
    }

    /**
     * The command Redis's lookupCommand finds, whose flags, keys and counters count: a container's
     * subcommand (XGROUP CREATE is a write naming a key, XGROUP HELP neither), or the command
     * itself (a container named alone or with an unknown subcommand).
     */
    static Command asLookedUp(Command command, byte[][] argv) {
        Subcommands subcommands = CONTAINERS.get(command.name());
        Command sub = subcommands == null || argv.length < 2 ? null : subcommands.lookup(argv);
        return sub == null ? command : sub;
    }

    /** Redis's text: the name and the first arguments, each cut so the list stays near 128 bytes. */
    private static String unknownCommand(byte[][] argv) {
        StringBuilder args = new StringBuilder();
        for (int i = 1; i < argv.length && args.length() < 128; i++) {
            String arg = Args.utf8(argv[i]);
            args.append('\'').append(arg, 0, Math.min(arg.length(), 128 - args.length())).append("' ");
        }
        String name = Args.utf8(argv[0]);
        return "ERR unknown command '" + name.substring(0, Math.min(name.length(), 128))
                + "', with args beginning with: " + args;
    }

    private static int hash(byte[] name) {
        int h = 0;
        for (byte b : name) {
            h = 31 * h + Args.toLower(b);
        }
        return h ^ (h >>> 16);
    }

    /** A row; a MOVABLE_KEYS command's keys are found as Redis's getkeys function for it finds them. */
    private static Command command(String name, int arity, Set<Flag> flags, int firstKey, int lastKey, int step,
                                   CommandHandler handler) {
        return new Command(name, arity, flags, firstKey, lastKey, step, handler,
                flags.contains(MOVABLE_KEYS) ? getkeys(name) : null);
    }

    /** Redis's getkeys function of the command {@code name}, as the positions the slot check reads. */
    private static Command.KeyFinder getkeys(String name) {
        Function<byte[][], List<KeyReference>> getkeys = KeyProcedures.of(name);
        return argv -> getkeys.apply(argv).stream().mapToInt(KeyReference::position).toArray();
    }

    private static Set<Flag> flags(Flag... flags) {
        EnumSet<Flag> set = EnumSet.noneOf(Flag.class);
        Collections.addAll(set, flags);
        return Collections.unmodifiableSet(set);
    }
}
