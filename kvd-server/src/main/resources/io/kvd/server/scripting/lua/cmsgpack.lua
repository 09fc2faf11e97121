-- The cmsgpack library scripts see in Redis (Redis's deps/lua/src/lua_cmsgpack.c, lua-cmsgpack
-- 0.4.0), written in Lua because Redis links the C library into its Lua and LuaJava's lua51
-- natives do not carry it. Encodings are the C code's byte for byte: the smallest integer form for
-- a number equal to a 64-bit integer, a float when the double survives the round trip through
-- float, an array for a table whose keys are exactly 1..n, and nil past 16 nested tables.
local support = ...
local raise, argerror, checkstring, checkinteger, optinteger, toint32 =
  support.error, support.argerror, support.checkstring, support.checkinteger, support.optinteger, support.toint32
local floatbytes, doublebytes, bytesfloat, bytesdouble, int64value =
  support.floatbytes, support.doublebytes, support.bytesfloat, support.bytesdouble, support.int64value
local type, select, next, error, unpack, floor, byte, char, sub, concat, format =
  type, select, next, error, unpack, math.floor, string.byte, string.char, string.sub, table.concat, string.format
local huge = math.huge

local MAX_NESTING = 16
-- Lua's limit on a C function's stack (LUAI_MAXCSTACK), which luaL_checkstack enforces.
local MAXCSTACK = 8000

-- The one-byte strings, which a lookup gives without a call to string.char.
local BYTES = {}
for c = 0, 255 do BYTES[c] = char(c) end

-- v, an integral double in [-2^63, 2^64), as code and its 8 bytes of two's complement, most
-- significant first: its two 32-bit halves are exact.
local function int64(code, v)
  local hi = floor(v / 4294967296)
  local lo = v - hi * 4294967296
  hi = hi % 4294967296
  return char(code, floor(hi / 16777216), floor(hi / 65536) % 256, floor(hi / 256) % 256, hi % 256,
    floor(lo / 16777216), floor(lo / 65536) % 256, floor(lo / 256) % 256, lo % 256)
end

local function encode_int(n)
  if n >= 0 then
    if n <= 127 then return BYTES[n] end
    if n <= 0xff then return char(0xcc, n) end
    if n <= 0xffff then return char(0xcd, floor(n / 256), n % 256) end
    if n <= 0xffffffff then
      return char(0xce, floor(n / 16777216), floor(n / 65536) % 256, floor(n / 256) % 256, n % 256)
    end
    return int64(0xcf, n)
  end
  if n >= -32 then return BYTES[n + 256] end
  if n >= -128 then return char(0xd0, n + 256) end
  if n >= -32768 then
    n = n + 65536
    return char(0xd1, floor(n / 256), n % 256)
  end
  if n >= -2147483648 then
    n = n + 4294967296
    return char(0xd2, floor(n / 16777216), floor(n / 65536) % 256, floor(n / 256) % 256, n % 256)
  end
  return int64(0xd3, n)
end

local function encode_double(d)
  local f = floatbytes(d)
  if bytesfloat(f, 1) == d then return '\202' .. f end
  return '\203' .. doublebytes(d)
end

-- A string's header: its bytes follow as a part of their own.
local function string_header(len)
  if len < 32 then return BYTES[0xa0 + len] end
  if len <= 0xff then return char(0xd9, len) end
  if len <= 0xffff then return char(0xda, floor(len / 256), len % 256) end
  return char(0xdb, floor(len / 16777216), floor(len / 65536) % 256, floor(len / 256) % 256, len % 256)
end

local function header(n, fix, code16, code32)
  if n <= 15 then return BYTES[fix + n] end
  if n <= 65535 then return char(code16, floor(n / 256), n % 256) end
  n = n % 4294967296
  return char(code32, floor(n / 16777216), floor(n / 65536) % 256, floor(n / 256) % 256, n % 256)
end

-- table_is_an_array: every key a number equal to a positive C int, the largest being the count.
local function is_array(t)
  local count, max = 0, 0
  for k in next, t do
    if type(k) ~= 'number' or k <= 0 or k > 2147483647 or k % 1 ~= 0 then return false end
    if k > max then max = k end
    count = count + 1
  end
  return max == count
end

-- Each encoder appends its parts to out after the n-th and returns the new count: the parts are
-- joined once, where concatenating would make (and intern) a string per value.
local encode

local function encode_table(t, level, out, n)
  n = n + 1
  if is_array(t) then
    local len = #t
    out[n] = header(len, 0x90, 0xdc, 0xdd)
    for j = 1, len do n = encode(t[j], level + 1, out, n) end
    return n
  end
  -- the header goes in its slot once the pairs are counted, saving a walk of the table
  local slot, len = n, 0
  for k, v in next, t do
    len = len + 1
    n = encode(k, level + 1, out, n)
    n = encode(v, level + 1, out, n)
  end
  out[slot] = header(len, 0x80, 0xde, 0xdf)
  return n
end

-- v % 1 == 0 tells an integral double without a call to math.floor (NaN and the infinities fail
-- it or the range).
function encode(v, level, out, n)
  n = n + 1
  local t = type(v)
  if t == 'string' then
    local len = #v
    out[n] = len < 32 and BYTES[0xa0 + len] or string_header(len)
    n = n + 1
    out[n] = v
  elseif t == 'number' then
    if v % 1 == 0 and v >= -9223372036854775808 and v < 9223372036854775808 then
      out[n] = v >= 0 and v <= 127 and BYTES[v] or encode_int(v)
    else
      out[n] = encode_double(v)
    end
  elseif t == 'boolean' then
    out[n] = v and '\195' or '\194'
  elseif t == 'table' and level < MAX_NESTING then
    return encode_table(v, level, out, n - 1)
  else
    out[n] = '\192'
  end
  return n
end

local cmsgpack = {_NAME = 'cmsgpack', _VERSION = 'lua-cmsgpack 0.4.0',
  _COPYRIGHT = 'Copyright (C) 2012, Salvatore Sanfilippo', _DESCRIPTION = 'MessagePack C implementation for Lua'}

-- One table of parts for every call: none is made and grown per call (nothing an encoding runs
-- can call pack again). Dropped past BUFFER_KEPT parts, so the strings of a large value are not held.
local BUFFER_KEPT = 256
local buffer = {}

-- pack(...): every argument encoded, concatenated.
function cmsgpack.pack(...)
  local nargs = select('#', ...)
  if nargs == 0 then argerror(0, 'MessagePack pack needs input.') end
  local out, n = buffer, 0
  if nargs == 1 then
    n = encode((...), 0, out, n)
  else
    for i = 1, nargs do n = encode((select(i, ...)), 0, out, n) end
  end
  if n > BUFFER_KEPT then buffer = {} end
  return concat(out, '', 1, n)
end

-- Decoding: the cursor is a position in s. The C code stops at the first error, so raising at once is the same.

local MISSING = 'Missing bytes in input.'
local TOO_MANY = 'stack overflow (too many return values at once; use unpack_one or unpack_limit instead.)'
local ARRAY_OVERFLOW = 'stack overflow (in function mp_decode_to_lua_array)'

local function uint16(s, pos)
  local b1, b2 = byte(s, pos, pos + 1)
  return b1 * 256 + b2
end

local function uint32(s, pos)
  local b1, b2, b3, b4 = byte(s, pos, pos + 3)
  return b1 * 16777216 + b2 * 65536 + b3 * 256 + b4
end

local decode

-- The value at pos of s (len its length) with height stack slots in use: returns it and the
-- position after it.
-- Arrays and maps read a fixint or fixstr element themselves, saving a call to decode; the stack
-- check is the one decode would make.
local function decode_array(s, pos, len, count, height)
  local t = {}
  if height + 2 > MAXCSTACK then raise(ARRAY_OVERFLOW) end
  local inline = height + 3 <= MAXCSTACK
  for i = 1, count do
    local c = byte(s, pos)
    if inline and c and c < 0x80 then
      t[i], pos = c, pos + 1
    elseif inline and c and c >= 0xa0 and c < 0xc0 and pos + c - 0xa0 <= len then
      t[i], pos = sub(s, pos + 1, pos + c - 0xa0), pos + c - 0x9f
    else
      t[i], pos = decode(s, pos, len, height + 2)
    end
  end
  return t, pos
end

local function decode_map(s, pos, len, count, height)
  local t = {}
  local inline = height + 3 <= MAXCSTACK
  for _ = 1, count do
    local k, v
    local c = byte(s, pos)
    if inline and c and c >= 0xa0 and c < 0xc0 and pos + c - 0xa0 <= len then
      k, pos = sub(s, pos + 1, pos + c - 0xa0), pos + c - 0x9f
    else
      k, pos = decode(s, pos, len, height + 1)
    end
    c = byte(s, pos)
    if inline and c and c < 0x80 then
      v, pos = c, pos + 1
    elseif inline and c and c >= 0xa0 and c < 0xc0 and pos + c - 0xa0 <= len then
      v, pos = sub(s, pos + 1, pos + c - 0xa0), pos + c - 0x9f
    else
      v, pos = decode(s, pos, len, height + 2)
    end
    if k == nil then error('table index is nil', 0) end
    if k ~= k then error('table index is NaN', 0) end
    t[k] = v
  end
  return t, pos
end

-- The common forms (fixint, fixstr, fixmap, fixarray) are tested first.
function decode(s, pos, len, height)
  if pos > len then raise(MISSING) end
  if height + 1 > MAXCSTACK then raise(TOO_MANY) end
  local c = byte(s, pos)
  if c < 0x80 then return c, pos + 1 end
  if c < 0x90 then return decode_map(s, pos + 1, len, c - 0x80, height) end
  if c < 0xa0 then return decode_array(s, pos + 1, len, c - 0x90, height) end
  if c < 0xc0 then
    local last = pos + c - 0xa0
    if last > len then raise(MISSING) end
    return sub(s, pos + 1, last), last + 1
  end
  if c >= 0xe0 then return c - 256, pos + 1 end
  if c == 0xc0 then return nil, pos + 1 end
  if c == 0xc2 then return false, pos + 1 end
  if c == 0xc3 then return true, pos + 1 end
  if c == 0xcc then
    if pos + 1 > len then raise(MISSING) end
    return byte(s, pos + 1), pos + 2
  end
  if c == 0xd0 then
    if pos + 1 > len then raise(MISSING) end
    local v = byte(s, pos + 1)
    return v >= 128 and v - 256 or v, pos + 2
  end
  if c == 0xcd then
    if pos + 2 > len then raise(MISSING) end
    return uint16(s, pos + 1), pos + 3
  end
  if c == 0xd1 then
    if pos + 2 > len then raise(MISSING) end
    local v = uint16(s, pos + 1)
    return v >= 32768 and v - 65536 or v, pos + 3
  end
  if c == 0xce then
    if pos + 4 > len then raise(MISSING) end
    return uint32(s, pos + 1), pos + 5
  end
  if c == 0xd2 then
    if pos + 4 > len then raise(MISSING) end
    return toint32(uint32(s, pos + 1)), pos + 5
  end
  -- uint 64 goes through lua_Integer, so the upper half comes back negative as int 64 does.
  if c == 0xcf or c == 0xd3 then
    if pos + 8 > len then raise(MISSING) end
    return int64value(uint32(s, pos + 1), uint32(s, pos + 5)), pos + 9
  end
  if c == 0xca then
    if pos + 4 > len then raise(MISSING) end
    return bytesfloat(s, pos + 1), pos + 5
  end
  if c == 0xcb then
    if pos + 8 > len then raise(MISSING) end
    return bytesdouble(s, pos + 1), pos + 9
  end
  if c == 0xd9 or c == 0xda or c == 0xdb then
    local n = c == 0xd9 and 1 or c == 0xda and 2 or 4
    if pos + n > len then raise(MISSING) end
    local l = n == 1 and byte(s, pos + 1) or n == 2 and uint16(s, pos + 1) or uint32(s, pos + 1)
    local first = pos + 1 + n
    if first + l - 1 > len then raise(MISSING) end
    return sub(s, first, first + l - 1), first + l
  end
  if c == 0xdc or c == 0xdd or c == 0xde or c == 0xdf then
    local n = (c == 0xdc or c == 0xde) and 2 or 4
    if pos + n > len then raise(MISSING) end
    local l = n == 2 and uint16(s, pos + 1) or uint32(s, pos + 1)
    if c <= 0xdd then return decode_array(s, pos + 1 + n, len, l, height) end
    return decode_map(s, pos + 1 + n, len, l, height)
  end
  raise('Bad data format in input.')
end

-- As many values as a Lua function returns with unpack: far below Lua's limit on the values a
-- C function can return, which is where the C code stops.
local SPREAD_IN_LUA = 200

-- mp_unpack_full: limit 0 and offset 0 decode everything and return just the values; otherwise
-- the offset after the last value (-1 at the end of the input) comes first. The values go back
-- after their count, or past SPREAD_IN_LUA as (-count, table), which the Java entry spreads (see
-- the chunk's second result): Lua's unpack could not return as many as the C function can.
local function unpack_full(s, limit, offset)
  local len = #s
  if offset < 0 or limit < 0 then
    raise(format('Invalid request to unpack with offset of %d and limit of %d.', toint32(offset), toint32(len)))
  elseif offset > len then
    raise(format('Start offset %d greater than input length %d.', toint32(offset), toint32(len)))
  end
  local all = limit == 0 and offset == 0
  if all then limit = 2147483647 end
  -- without all, results[1] is kept for the offset
  local first = all and 0 or 1
  local results, count, pos = {}, first, offset + 1
  while pos <= len and count - first < limit do
    local v, after = decode(s, pos, len, 1 + count - first)
    count = count + 1
    results[count] = v
    pos = after
  end
  if not all then
    if count + 1 > MAXCSTACK then raise('stack overflow (in function mp_unpack_full)') end
    results[1] = pos > len and -1 or pos - 1
  end
  if count <= SPREAD_IN_LUA then return count, unpack(results, 1, count) end
  return -count, results
end

function cmsgpack.unpack(...)
  local nargs = select('#', ...)
  return unpack_full(checkstring(1, nargs, (...)), 0, 0)
end

function cmsgpack.unpack_one(...)
  local nargs = select('#', ...)
  local offset = optinteger(2, nargs, (select(2, ...)), 0)
  return unpack_full(checkstring(1, nargs, (...)), 1, offset)
end

function cmsgpack.unpack_limit(...)
  local nargs = select('#', ...)
  local limit = checkinteger(2, nargs, (select(2, ...)))
  local offset = optinteger(3, nargs, (select(3, ...)), 0)
  return unpack_full(checkstring(1, nargs, (...)), limit, offset)
end

return cmsgpack, {unpack = true, unpack_one = true, unpack_limit = true}
