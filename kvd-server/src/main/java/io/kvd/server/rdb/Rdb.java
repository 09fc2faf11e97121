package io.kvd.server.rdb;

/** The numbers of Redis 7.0's rdb.h: the version, value types and opcodes. */
final class Rdb {
    static final int VERSION = 10;

    static final int TYPE_STRING = 0;
    static final int TYPE_LIST = 1;
    static final int TYPE_SET = 2;
    static final int TYPE_ZSET = 3;
    static final int TYPE_HASH = 4;
    static final int TYPE_ZSET_2 = 5;
    static final int TYPE_MODULE = 6;
    static final int TYPE_MODULE_2 = 7;
    static final int TYPE_HASH_ZIPMAP = 9;
    static final int TYPE_LIST_ZIPLIST = 10;
    static final int TYPE_SET_INTSET = 11;
    static final int TYPE_ZSET_ZIPLIST = 12;
    static final int TYPE_HASH_ZIPLIST = 13;
    static final int TYPE_LIST_QUICKLIST = 14;
    static final int TYPE_STREAM_LISTPACKS = 15;
    static final int TYPE_HASH_LISTPACK = 16;
    static final int TYPE_ZSET_LISTPACK = 17;
    static final int TYPE_LIST_QUICKLIST_2 = 18;
    static final int TYPE_STREAM_LISTPACKS_2 = 19;

    static final int OPCODE_FUNCTION2 = 245;
    static final int OPCODE_FUNCTION_PRE_GA = 246;
    static final int OPCODE_MODULE_AUX = 247;
    static final int OPCODE_IDLE = 248;
    static final int OPCODE_FREQ = 249;
    static final int OPCODE_AUX = 250;
    static final int OPCODE_RESIZEDB = 251;
    static final int OPCODE_EXPIRETIME_MS = 252;
    static final int OPCODE_EXPIRETIME = 253;
    static final int OPCODE_SELECTDB = 254;
    static final int OPCODE_EOF = 255;

    static final int ENC_INT8 = 0;
    static final int ENC_INT16 = 1;
    static final int ENC_INT32 = 2;
    static final int ENC_LZF = 3;

    static final int QUICKLIST_NODE_PLAIN = 1;
    static final int QUICKLIST_NODE_PACKED = 2;

    /** Redis's module value opcodes (RDB_MODULE_OPCODE_*), for skipping a module's aux data. */
    static final int MODULE_OPCODE_EOF = 0;
    static final int MODULE_OPCODE_SINT = 1;
    static final int MODULE_OPCODE_UINT = 2;
    static final int MODULE_OPCODE_FLOAT = 3;
    static final int MODULE_OPCODE_DOUBLE = 4;
    static final int MODULE_OPCODE_STRING = 5;

    private Rdb() {
    }
}
