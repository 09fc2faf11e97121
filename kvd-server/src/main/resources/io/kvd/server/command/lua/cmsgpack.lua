-- The cmsgpack library scripts see in Redis (Redis's deps/lua/src/lua_cmsgpack.c, lua-cmsgpack
-- 0.4.0), written in Lua because Redis links the C library into its Lua and LuaJava's lua51
-- natives do not carry it. Encodings are the C code's byte for byte: the smallest integer form for
-- a number equal to a 64-bit integer, a float when the double survives the round trip through
-- float, an array for a table whose keys are exactly 1..n, and nil past 16 nested tables.
local support = ...
local raise, argerror, checkstring, checkinteger, optinteger, toint32 =
  support.error, support.argerror, support.checkstring, support.checkinteger, support.optinteger, support.toint32
local floatbytes, doublebytes, bytesfloat, bytesdouble, int64le, int64value =
  support.floatbytes, support.doublebytes, support.bytesfloat, support.bytesdouble, support.int64le,
  support.int64value
local type, select, next, error, floor, byte, char, sub, concat, reverse, format =
  type, select, next, error, math.floor, string.byte, string.char, string.sub, table.concat, string.reverse,
  string.format
local huge = math.huge

local MAX_NESTING = 16
-- Lua's limit on a C function's stack (LUAI_MAXCSTACK), which luaL_checkstack enforces.
local MAXCSTACK = 8000

-- v in [0, 2^32) as 2 or 4 bytes, most significant first.
local function bigendian(v, bytes)
  if bytes == 2 then return char(floor(v / 256), v % 256) end
  return char(floor(v / 16777216), floor(v / 65536) % 256, floor(v / 256) % 256, v % 256)
end

local function encode_int(n)
  if n >= 0 then
    if n <= 127 then return char(n) end
    if n <= 0xff then return char(0xcc, n) end
    if n <= 0xffff then return char(0xcd) .. bigendian(n, 2) end
    if n <= 0xffffffff then return char(0xce) .. bigendian(n, 4) end
    return char(0xcf) .. reverse(int64le(n))
  end
  if n >= -32 then return char(n + 256) end
  if n >= -128 then return char(0xd0, n + 256) end
  if n >= -32768 then return char(0xd1) .. bigendian(n + 65536, 2) end
  if n >= -2147483648 then return char(0xd2) .. bigendian(n + 4294967296, 4) end
  return char(0xd3) .. reverse(int64le(n))
end

local function encode_double(d)
  local f = floatbytes(d)
  if bytesfloat(f, 1) == d then return char(0xca) .. f end
  return char(0xcb) .. doublebytes(d)
end

local function encode_string(s)
  local len = #s
  if len < 32 then return char(0xa0 + len) .. s end
  if len <= 0xff then return char(0xd9, len) .. s end
  if len <= 0xffff then return char(0xda) .. bigendian(len, 2) .. s end
  return char(0xdb) .. bigendian(len, 4) .. s
end

local function header(n, fix, code16, code32)
  if n <= 15 then return char(fix + n) end
  if n <= 65535 then return char(code16) .. bigendian(n, 2) end
  return char(code32) .. bigendian(n % 4294967296, 4)
end

-- table_is_an_array: every key a number equal to a positive C int, the largest being the count.
local function is_array(t)
  local count, max = 0, 0
  for k in next, t do
    if type(k) ~= 'number' or k <= 0 or k > 2147483647 or k ~= floor(k) then return false end
    if k > max then max = k end
    count = count + 1
  end
  return max == count
end

local encode

local function encode_table(t, level, out)
  if is_array(t) then
    local len = #t
    out[#out + 1] = header(len, 0x90, 0xdc, 0xdd)
    for j = 1, len do encode(t[j], level + 1, out) end
  else
    local len = 0
    for _ in next, t do len = len + 1 end
    out[#out + 1] = header(len, 0x80, 0xde, 0xdf)
    for k, v in next, t do
      encode(k, level + 1, out)
      encode(v, level + 1, out)
    end
  end
end

function encode(v, level, out)
  local t = type(v)
  if t == 'string' then
    out[#out + 1] = encode_string(v)
  elseif t == 'boolean' then
    out[#out + 1] = v and '\195' or '\194'
  elseif t == 'number' then
    if v ~= huge and v ~= -huge and v == floor(v) and v >= -9223372036854775808 and v < 9223372036854775808 then
      out[#out + 1] = encode_int(v)
    else
      out[#out + 1] = encode_double(v)
    end
  elseif t == 'table' and level < MAX_NESTING then
    encode_table(v, level, out)
  else
    out[#out + 1] = '\192'
  end
end

local cmsgpack = {_NAME = 'cmsgpack', _VERSION = 'lua-cmsgpack 0.4.0',
  _COPYRIGHT = 'Copyright (C) 2012, Salvatore Sanfilippo', _DESCRIPTION = 'MessagePack C implementation for Lua'}

-- pack(...): every argument encoded, concatenated.
function cmsgpack.pack(...)
  local nargs = select('#', ...)
  if nargs == 0 then argerror(0, 'MessagePack pack needs input.') end
  local out = {}
  for i = 1, nargs do encode((select(i, ...)), 0, out) end
  return concat(out)
end

-- Decoding: the cursor is a position in s. The C code stops at the first error, so raising at once is the same.

local function need(s, pos, n)
  if #s - pos + 1 < n then raise('Missing bytes in input.') end
end

local function uint(s, pos, n)
  local v = 0
  for i = pos, pos + n - 1 do v = v * 256 + byte(s, i) end
  return v
end

local function int64(s, pos)
  return int64value(uint(s, pos, 4), uint(s, pos + 4, 4))
end

local function checkstack(height, message)
  if height + 1 > MAXCSTACK then raise('stack overflow (' .. message .. ')') end
end

local TOO_MANY = 'too many return values at once; use unpack_one or unpack_limit instead.'

local decode

-- The next value at pos with height stack slots in use: returns it and the position after it.
local function decode_array(s, pos, len, height)
  local t = {}
  checkstack(height + 1, 'in function mp_decode_to_lua_array')
  for i = 1, len do
    local v
    v, pos = decode(s, pos, height + 2)
    t[i] = v
  end
  return t, pos
end

local function decode_map(s, pos, len, height)
  local t = {}
  for _ = 1, len do
    local k, v
    k, pos = decode(s, pos, height + 1)
    v, pos = decode(s, pos, height + 2)
    if k == nil then error('table index is nil', 0) end
    if k ~= k then error('table index is NaN', 0) end
    t[k] = v
  end
  return t, pos
end

function decode(s, pos, height)
  need(s, pos, 1)
  checkstack(height, TOO_MANY)
  local c = byte(s, pos)
  if c < 0x80 then return c, pos + 1 end
  if c >= 0xe0 then return c - 256, pos + 1 end
  if c < 0x90 then return decode_map(s, pos + 1, c - 0x80, height) end
  if c < 0xa0 then return decode_array(s, pos + 1, c - 0x90, height) end
  if c < 0xc0 then
    local l = c - 0xa0
    need(s, pos, 1 + l)
    return sub(s, pos + 1, pos + l), pos + 1 + l
  end
  if c == 0xc0 then return nil, pos + 1 end
  if c == 0xc2 then return false, pos + 1 end
  if c == 0xc3 then return true, pos + 1 end
  if c == 0xcc then need(s, pos, 2) return byte(s, pos + 1), pos + 2 end
  if c == 0xd0 then
    need(s, pos, 2)
    local v = byte(s, pos + 1)
    return v >= 128 and v - 256 or v, pos + 2
  end
  if c == 0xcd then need(s, pos, 3) return uint(s, pos + 1, 2), pos + 3 end
  if c == 0xd1 then
    need(s, pos, 3)
    local v = uint(s, pos + 1, 2)
    return v >= 32768 and v - 65536 or v, pos + 3
  end
  if c == 0xce then need(s, pos, 5) return uint(s, pos + 1, 4), pos + 5 end
  if c == 0xd2 then need(s, pos, 5) return toint32(uint(s, pos + 1, 4)), pos + 5 end
  -- uint 64 goes through lua_Integer, so the upper half comes back negative as int 64 does.
  if c == 0xcf or c == 0xd3 then need(s, pos, 9) return int64(s, pos + 1), pos + 9 end
  if c == 0xca then need(s, pos, 5) return bytesfloat(s, pos + 1), pos + 5 end
  if c == 0xcb then need(s, pos, 9) return bytesdouble(s, pos + 1), pos + 9 end
  if c == 0xd9 or c == 0xda or c == 0xdb then
    local n = c == 0xd9 and 1 or c == 0xda and 2 or 4
    need(s, pos, 1 + n)
    local l = uint(s, pos + 1, n)
    need(s, pos + 1 + n, l)
    return sub(s, pos + 1 + n, pos + n + l), pos + 1 + n + l
  end
  if c == 0xdc or c == 0xdd or c == 0xde or c == 0xdf then
    local n = (c == 0xdc or c == 0xde) and 2 or 4
    need(s, pos, 1 + n)
    local l = uint(s, pos + 1, n)
    if c <= 0xdd then return decode_array(s, pos + 1 + n, l, height) end
    return decode_map(s, pos + 1 + n, l, height)
  end
  raise('Bad data format in input.')
end

-- mp_unpack_full: limit 0 and offset 0 decode everything and return just the values; otherwise
-- the offset after the last value (-1 at the end of the input) comes first. The values go back
-- as (count, table), which the Java entry spreads (see the chunk's second result): Lua's unpack
-- could not return as many as the C function can.
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
    local v, after = decode(s, pos, 1 + count - first)
    count = count + 1
    results[count] = v
    pos = after
  end
  if not all then
    if count + 1 > MAXCSTACK then raise('stack overflow (in function mp_unpack_full)') end
    results[1] = pos > len and -1 or pos - 1
  end
  return count, results
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
