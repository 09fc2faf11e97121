package io.kvd.server.command;

import io.kvd.server.admin.ClientCommand;
import io.kvd.server.admin.ClusterCommand;
import io.kvd.server.admin.ConfigCommand;
import io.kvd.server.admin.DebugCommand;
import io.kvd.server.admin.InfoCommand;
import io.kvd.server.admin.LatencyCommand;
import io.kvd.server.admin.LolwutCommand;
import io.kvd.server.admin.MemoryCommand;
import io.kvd.server.admin.PersistenceCommands;
import io.kvd.server.admin.ReplicationCommands;
import io.kvd.server.admin.ServerCommands;
import io.kvd.server.admin.SlowlogCommand;
import io.kvd.server.client.Client;
import io.kvd.server.client.Command.Flag;
import io.kvd.server.client.Command;
import io.kvd.server.client.CommandHandler;
import io.kvd.server.client.Dispatcher;
import io.kvd.server.client.Subcommands;
import io.kvd.server.config.Config;
import io.kvd.server.keyspec.KeyProcedures;
import io.kvd.server.keyspec.KeyReference;
import io.kvd.server.protocol.Args;
import io.kvd.server.scripting.FunctionCommands;
import io.kvd.server.scripting.ScriptingCommands;

import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import static io.kvd.server.client.Command.Flag.*;

/**
 * Every command kvd implements, with its arity, flags and key positions (as Redis's COMMAND INFO
 * reports them), and the lookup by name; {@link Dispatcher} checks and runs what is found. Reading
 * this file lists what kvd does.
 */
public final class CommandTable {
    /** The commands with subcommands, whose name and arity are checked before a command is queued. */
    private static final Map<String, Subcommands> CONTAINERS = Map.ofEntries(
            Map.entry("acl", AclCommand.SUBCOMMANDS), Map.entry("client", ClientCommand.SUBCOMMANDS), Map.entry("config", ConfigCommand.SUBCOMMANDS),
            Map.entry("command", CommandCommand.SUBCOMMANDS), Map.entry("cluster", ClusterCommand.SUBCOMMANDS),
            Map.entry("object", ObjectCommand.SUBCOMMANDS), Map.entry("memory", MemoryCommand.SUBCOMMANDS),
            Map.entry("pubsub", PubSubCommands.SUBCOMMANDS),
            Map.entry("script", ScriptingCommands.SUBCOMMANDS), Map.entry("function", FunctionCommands.SUBCOMMANDS),
            Map.entry("xinfo", StreamCommands.XINFO), Map.entry("xgroup", StreamGroupCommands.XGROUP_SUBCOMMANDS),
            Map.entry("slowlog", SlowlogCommand.SUBCOMMANDS), Map.entry("latency", LatencyCommand.SUBCOMMANDS));
    private static final Command[] COMMANDS = {
            // connection
            command("ping", -1, flags(FAST, SENTINEL), 0, 0, 0, ConnectionCommands::ping),
            command("echo", 2, flags(LOADING, STALE, FAST), 0, 0, 0, ConnectionCommands::echo),
            command("quit", -1, flags(ALLOW_BUSY, NOSCRIPT, LOADING, STALE, FAST, NO_AUTH), 0, 0, 0, ConnectionCommands::quit),
            command("select", 2, flags(LOADING, STALE, FAST), 0, 0, 0, ConnectionCommands::select),
            command("auth", -2, flags(NOSCRIPT, LOADING, STALE, FAST, NO_AUTH, ALLOW_BUSY), 0, 0, 0, ConnectionCommands::auth),
            command("hello", -1, flags(NOSCRIPT, LOADING, STALE, FAST, NO_AUTH, ALLOW_BUSY), 0, 0, 0, ConnectionCommands::hello),
            command("client", -2, flags(), 0, 0, 0, ClientCommand::client),
            command("acl", -2, flags(), 0, 0, 0, AclCommand::acl),
            command("reset", 1, flags(NOSCRIPT, LOADING, STALE, FAST, NO_AUTH, ALLOW_BUSY), 0, 0, 0, ConnectionCommands::reset),

            // transactions
            command("multi", 1, flags(NOSCRIPT, LOADING, STALE, FAST, ALLOW_BUSY), 0, 0, 0, TransactionCommands::multi),
            command("exec", 1, flags(NOSCRIPT, LOADING, STALE, SKIP_SLOWLOG), 0, 0, 0, TransactionCommands::exec),
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
            command("restore-asking", -4, flags(WRITE, DENYOOM, ASKING), 1, 1, 1, DumpCommands::restore),
            // COMMAND INFO names the key argument (3 3 1); its getkeys function reads KEYS.
            command("migrate", -6, flags(WRITE, MOVABLE_KEYS), 3, 3, 1, MigrateCommand::migrate),
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
            command("replicaof", 3, flags(ADMIN, NOSCRIPT, STALE, NO_ASYNC_LOADING), 0, 0, 0, ReplicationCommands::replicaof),
            command("slaveof", 3, flags(ADMIN, NOSCRIPT, STALE, NO_ASYNC_LOADING), 0, 0, 0, ReplicationCommands::replicaof),
            command("sync", 1, flags(ADMIN, NOSCRIPT, NO_MULTI, NO_ASYNC_LOADING), 0, 0, 0, ReplicationCommands::sync),
            command("psync", -3, flags(ADMIN, NOSCRIPT, NO_MULTI, NO_ASYNC_LOADING), 0, 0, 0, ReplicationCommands::psync),
            command("replconf", -1, flags(ADMIN, NOSCRIPT, LOADING, STALE, ALLOW_BUSY), 0, 0, 0, ReplicationCommands::replconf),
            command("role", 1, flags(NOSCRIPT, LOADING, STALE, FAST, SENTINEL), 0, 0, 0, ReplicationCommands::role),
            command("wait", 3, flags(NOSCRIPT), 0, 0, 0, ReplicationCommands::await),
            command("failover", -1, flags(ADMIN, NOSCRIPT, STALE), 0, 0, 0, ReplicationCommands::failover),
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
    /** The name each slot's command is known by: its own, or the one rename-command gave it. */
    private final String[] slotNames;

    public CommandTable() {
        this(List.of());
    }

    /**
     * The table with the configuration's rename-command lines applied in order, as Redis's
     * config loading applies them to its command dictionary.
     *
     * @throws IllegalArgumentException with Redis's text for a name no command has, or a new
     *                                  name another command already has
     */
    public CommandTable(List<Config.CommandRename> renames) {
        Map<String, Command> byName = new LinkedHashMap<>();
        for (Command c : COMMANDS) {
            byName.put(c.name(), c);
        }
        for (Config.CommandRename rename : renames) {
            Command renamed = byName.remove(rename.name().toLowerCase(Locale.ROOT));
            if (renamed == null) {
                throw new IllegalArgumentException(rename.where() + ": No such command in rename-command");
            }
            String newName = rename.newName().toLowerCase(Locale.ROOT);
            if (!newName.isEmpty() && byName.putIfAbsent(newName, renamed) != null) {
                throw new IllegalArgumentException(rename.where() + ": Target command name already exists");
            }
        }
        slots = new Command[Integer.highestOneBit(COMMANDS.length * 4) * 2];
        slotNames = new String[slots.length];
        byName.forEach((name, c) -> {
            int i = hash(Args.bytes(name)) & (slots.length - 1);
            while (slots[i] != null) {
                i = (i + 1) & (slots.length - 1);
            }
            slots[i] = c;
            slotNames[i] = name;
        });
    }

    /** Every command's name, in table order (what ACL rules name). */
    public static List<String> names() {
        return ALL.stream().map(Command::name).toList();
    }

    /** Every command, in table order. */
    public static List<Command> all() {
        return ALL;
    }

    /** The command named by {@code name} in any case, or null; allocates nothing. */
    public Command lookup(byte[] name) {
        int i = hash(name) & (slots.length - 1);
        for (Command c; (c = slots[i]) != null; i = (i + 1) & (slots.length - 1)) {
            if (Args.is(name, slotNames[i])) {
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
            Dispatcher.refuseUnknown(client, argv);
            return null;
        }
        return Dispatcher.call(client, command, argv);
    }

    /**
     * Redis's lookupCommand for a full request (COMMAND GETKEYS's): the command, or the subcommand
     * its second argument names if it is a container; null if either is unknown.
     */
    static Command lookupFull(byte[][] request) {
        Command command = ALL.stream().filter(c -> Args.is(request[0], c.name())).findFirst().orElse(null);
        Subcommands subcommands = command == null ? null : command.subcommands();
        return subcommands == null || request.length == 1 ? command : subcommands.lookup(request);
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
                flags.contains(MOVABLE_KEYS) ? getkeys(name) : null, CONTAINERS.get(name));
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
