// SPDX-License-Identifier: MIT
#include "vtx/model/Value.hpp"

#include "vtx/base/NumberText.hpp"
#include "vtx/base/Utf8.hpp"

#include <cmath>
#include <cstdio>

namespace vtx {

const char* valueKindName(Value::Kind k)
{
    switch (k) {
    case Value::Kind::Absent: return "absent";
    case Value::Kind::Bool: return "bool";
    case Value::Kind::Int: return "int";
    case Value::Kind::Float: return "float";
    case Value::Kind::Double: return "double";
    case Value::Kind::String: return "string";
    case Value::Kind::Vector: return "vector";
    case Value::Kind::Quat: return "quat";
    case Value::Kind::Transform: return "transform";
    case Value::Kind::Struct: return "struct";
    case Value::Kind::Array: return "array";
    case Value::Kind::Map: return "map";
    case Value::Kind::Range: return "range";
    }
    return "?";
}

ValueComponents componentsOf(const Value& v)
{
    ValueComponents c;
    auto push = [&](double x) { c.values[c.size++] = x; };
    const Transform& t = v.transform;
    switch (v.kind) {
    case Value::Kind::Bool:
    case Value::Kind::Int:
    case Value::Kind::Float:
    case Value::Kind::Double: push(v.number); break;
    case Value::Kind::Vector: push(t.translation.x), push(t.translation.y), push(t.translation.z); break;
    case Value::Kind::Quat: push(t.rotation.x), push(t.rotation.y), push(t.rotation.z), push(t.rotation.w); break;
    case Value::Kind::Range: push(t.rotation.x), push(t.rotation.y), push(t.rotation.z); break;
    case Value::Kind::Transform:
        push(t.translation.x), push(t.translation.y), push(t.translation.z);
        push(t.rotation.x), push(t.rotation.y), push(t.rotation.z), push(t.rotation.w);
        push(t.scale.x), push(t.scale.y), push(t.scale.z);
        break;
    default: break;
    }
    return c;
}

const char* componentName(Value::Kind k, size_t i)
{
    static const char* xyz[] = {"x", "y", "z", "w"};
    static const char* transform[] = {"translation.x", "translation.y", "translation.z", "rotation.x", "rotation.y",
                                      "rotation.z",    "rotation.w",    "scale.x",       "scale.y",    "scale.z"};
    switch (k) {
    case Value::Kind::Vector: return i < 3 ? xyz[i] : "";
    case Value::Kind::Quat: return i < 4 ? xyz[i] : "";
    case Value::Kind::Transform: return i < 10 ? transform[i] : "";
    case Value::Kind::Range: return i == 0 ? "min" : i == 1 ? "max" : i == 2 ? "value_normalized" : "";
    default: return "";
    }
}

namespace {
std::string vecText(const Vec3& v)
{
    return "(" + formatDouble(v.x) + ", " + formatDouble(v.y) + ", " + formatDouble(v.z) + ")";
}
std::string readableVecText(const Vec3& v)
{
    return "(" + readableDouble(v.x) + ", " + readableDouble(v.y) + ", " + readableDouble(v.z) + ")";
}
std::string quatText(const Quat& q)
{
    return "(" + formatFloat(q.x) + ", " + formatFloat(q.y) + ", " + formatFloat(q.z) + ", " + formatFloat(q.w) + ")";
}
} // namespace

std::string formatValue(const Value& v)
{
    switch (v.kind) {
    case Value::Kind::Absent: return "—";
    case Value::Kind::Bool: return v.integer ? "true" : "false";
    case Value::Kind::Int: return std::to_string(v.integer);
    case Value::Kind::Float: return formatFloat(float(v.number));
    case Value::Kind::Double: return formatDouble(v.number);
    case Value::Kind::String: return "\"" + sanitizeUtf8(v.text) + "\"";
    case Value::Kind::Vector: return vecText(v.transform.translation);
    case Value::Kind::Quat: return quatText(v.transform.rotation);
    case Value::Kind::Transform:
        return "T" + vecText(v.transform.translation) + " R" + quatText(v.transform.rotation) + " S" + vecText(v.transform.scale);
    case Value::Kind::Struct: return "{…}";
    case Value::Kind::Array:
        if (v.isBytes) { // the length and the first bytes, so two payloads can be told apart at a glance
            static const char* digits = "0123456789abcdef";
            std::string out = "[" + std::to_string(v.count) + "]";
            for (size_t i = 0; i < v.text.size() && i < 8; ++i) {
                const auto b = uint8_t(v.text[i]);
                out += ' ';
                out += digits[b >> 4];
                out += digits[b & 15];
            }
            return v.text.size() > 8 ? out + " …" : out;
        }
        return "[" + std::to_string(v.count) + "]";
    case Value::Kind::Map: return "{" + std::to_string(v.count) + "}";
    case Value::Kind::Range:
        return "[" + formatFloat(v.transform.rotation.x) + ", " + formatFloat(v.transform.rotation.y) + "] @ " + formatFloat(v.transform.rotation.z);
    }
    return {};
}

std::string formatValueForReading(const Value& v)
{
    switch (v.kind) {
    case Value::Kind::Int: return groupDigits(std::to_string(v.integer));
    case Value::Kind::Double: return readableDouble(v.number);
    case Value::Kind::Vector: return readableVecText(v.transform.translation);
    case Value::Kind::Transform:
        return "T" + readableVecText(v.transform.translation) + " R" + quatText(v.transform.rotation) + " S" + readableVecText(v.transform.scale);
    default: return formatValue(v);
    }
}

std::optional<ValueComponents> deltaOf(const Value& a, const Value& b)
{
    if (a.kind != b.kind || a.kind == Value::Kind::Bool)
        return std::nullopt;
    if (a.kind == Value::Kind::Int) {
        ValueComponents d;
        int64_t exact = 0; // int64 extremes overflow the subtraction: fall back to doubles
        d.values[0] = __builtin_sub_overflow(b.integer, a.integer, &exact) ? double(b.integer) - double(a.integer) : double(exact);
        d.size = 1;
        return d;
    }
    ValueComponents ca = componentsOf(a), cb = componentsOf(b);
    if (ca.size == 0)
        return std::nullopt;
    for (size_t i = 0; i < ca.size; ++i)
        ca.values[i] = cb.values[i] - ca.values[i];
    return ca;
}

std::string formatDelta(Value::Kind kind, double delta, bool forReading)
{
    const bool floatTyped = kind == Value::Kind::Float || kind == Value::Kind::Quat || kind == Value::Kind::Range;
    std::string text = floatTyped ? formatFloat(float(delta)) : forReading ? readableDouble(delta) : formatDouble(delta);
    if (delta > 0)
        text.insert(text.begin(), '+');
    return text;
}

namespace {

// Digits after the decimal point of a number's shortest text; -1 when it has an exponent (no
// fixed number of decimals to keep).
int decimalsOf(const std::string& text)
{
    if (text.find_first_of("eE") != std::string::npos)
        return -1;
    const size_t dot = text.find('.');
    return dot == std::string::npos ? 0 : int(text.size() - dot - 1);
}

// A delta on screen at the precision of the two values it separates: 891.93 → 892.01 is +0.08,
// not +0.0800170898 (the float subtraction's noise). Falls back to the exact text when either
// value is written with an exponent.
std::string deltaForReading(Value::Kind kind, double a, double b, double delta)
{
    const bool floatTyped = kind == Value::Kind::Float || kind == Value::Kind::Quat || kind == Value::Kind::Range;
    auto text = [&](double x) { return floatTyped ? formatFloat(float(x)) : readableDouble(x); };
    const int da = decimalsOf(text(a)), db = decimalsOf(text(b));
    if (da < 0 || db < 0 || kind == Value::Kind::Int || !std::isfinite(delta))
        return formatDelta(kind, delta, true);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", std::max(da, db), delta);
    std::string out = buf;
    // The values are shortest texts: zeros after the last digit they have say nothing.
    if (out.find('.') != std::string::npos) {
        out.erase(out.find_last_not_of('0') + 1);
        if (out.back() == '.')
            out.pop_back();
    }
    if (out.find_first_not_of("-0.") == std::string::npos)
        return "0";
    if (delta > 0)
        out.insert(out.begin(), '+');
    return out;
}

// The angle between two rotations in degrees: how far the entity turned, which four quaternion
// component deltas do not say. From the relative rotation's vector part and scalar (atan2), which
// stays accurate near 0°, where acos of the dot product does not.
double rotationAngleDegrees(const Quat& p, const Quat& q)
{
    const double px = p.x, py = p.y, pz = p.z, pw = p.w, qx = q.x, qy = q.y, qz = q.z, qw = q.w;
    // r = conj(p) * q
    const double rw = pw * qw + px * qx + py * qy + pz * qz;
    const double rx = pw * qx - px * qw - py * qz + pz * qy;
    const double ry = pw * qy + px * qz - py * qw - pz * qx;
    const double rz = pw * qz - px * qy + py * qx - pz * qw;
    const double v = std::sqrt(rx * rx + ry * ry + rz * rz);
    if (v == 0 && rw == 0)
        return std::nan(""); // a zero quaternion is no rotation
    return 2 * std::atan2(v, std::fabs(rw)) * 180 / 3.14159265358979323846;
}

std::string angleText(double degrees)
{
    if (std::isnan(degrees))
        return "∠ ?";
    // float32 components resolve an angle to about 1e-5°: below 5e-4° the two are the same
    // rotation written differently (q and −q, or a rounding apart).
    if (degrees < 5e-4)
        return "∠0°";
    char buf[32];
    std::snprintf(buf, sizeof buf, degrees >= 10 ? "∠%.1f°" : "∠%.3g°", degrees);
    return buf;
}

} // namespace

std::string formatDeltaOf(const Value& a, const Value& b, bool forReading)
{
    if (a.isBytes && b.isBytes) {
        const size_t n = std::min(a.text.size(), b.text.size());
        size_t differ = std::max(a.text.size(), b.text.size()) - n, first = n;
        for (size_t i = 0; i < n; ++i)
            if (a.text[i] != b.text[i]) {
                first = std::min(first, i);
                ++differ;
            }
        if (differ == 0)
            return {};
        char at[24];
        std::snprintf(at, sizeof at, "0x%zx", first);
        return std::to_string(differ) + " of " + std::to_string(std::max(a.text.size(), b.text.size())) + " bytes differ, first at " + at;
    }
    auto d = deltaOf(a, b);
    if (!d)
        return {};
    if (forReading && a.kind != Value::Kind::Int) {
        // On screen: each component at its values' precision, a rotation as the angle turned.
        const ValueComponents ca = componentsOf(a), cb = componentsOf(b);
        auto part = [&](size_t from, size_t to) {
            std::string out;
            for (size_t i = from; i < to; ++i)
                out += (i > from ? ", " : "") + deltaForReading(a.kind, ca.values[i], cb.values[i], d->values[i]);
            return to - from == 1 ? out : "(" + out + ")";
        };
        auto unchanged = [&](size_t from, size_t to) {
            for (size_t i = from; i < to; ++i)
                if (d->values[i] != 0)
                    return false;
            return true;
        };
        switch (a.kind) {
        case Value::Kind::Quat: return angleText(rotationAngleDegrees(a.transform.rotation, b.transform.rotation));
        case Value::Kind::Transform: {
            // Translation, then what else changed: the angle turned, the scale.
            std::string out = part(0, 3);
            if (!unchanged(3, 7))
                out += " " + angleText(rotationAngleDegrees(a.transform.rotation, b.transform.rotation));
            if (!unchanged(7, 10))
                out += " scale " + part(7, 10);
            return out;
        }
        default: return part(0, d->size);
        }
    }
    if (d->size == 1)
        return formatDelta(a.kind, d->values[0], forReading);
    std::string out = "(";
    for (size_t i = 0; i < d->size; ++i)
        out += (i ? ", " : "") + formatDelta(a.kind, d->values[i], forReading);
    return out + ")";
}

bool FloatTolerance::equalSlow(double a, double b) const
{
    const bool na = std::isnan(a), nb = std::isnan(b);
    if (na || nb)
        return na && nb;
    const double d = std::fabs(a - b); // inf - inf is nan: compares false below, as it should
    if (d <= absolute)
        return true;
    return relative > 0 && d <= relative * std::max(std::fabs(a), std::fabs(b));
}

bool valuesEqual(const Value& a, const Value& b, const FloatTolerance& tol)
{
    if (a.kind != b.kind)
        return false;
    const Transform &x = a.transform, &y = b.transform;
    auto vec = [&](const Vec3& p, const Vec3& q) { return tol.equal(p.x, q.x) && tol.equal(p.y, q.y) && tol.equal(p.z, q.z); };
    auto quat = [&](const Quat& p, const Quat& q) {
        return tol.equal(p.x, q.x) && tol.equal(p.y, q.y) && tol.equal(p.z, q.z) && tol.equal(p.w, q.w);
    };
    switch (a.kind) {
    case Value::Kind::Absent: return true;
    case Value::Kind::Bool:
    case Value::Kind::Int: return a.integer == b.integer;
    case Value::Kind::Float:
    case Value::Kind::Double: return tol.equal(a.number, b.number);
    case Value::Kind::String: return a.text == b.text;
    case Value::Kind::Vector: return vec(x.translation, y.translation);
    case Value::Kind::Quat: return quat(x.rotation, y.rotation);
    case Value::Kind::Transform: return vec(x.translation, y.translation) && quat(x.rotation, y.rotation) && vec(x.scale, y.scale);
    case Value::Kind::Struct: return a.typeId == b.typeId && a.count == b.count;
    case Value::Kind::Array:
    case Value::Kind::Map: return a.count == b.count && a.digest == b.digest;
    case Value::Kind::Range:
        return tol.equal(x.rotation.x, y.rotation.x) && tol.equal(x.rotation.y, y.rotation.y) && tol.equal(x.rotation.z, y.rotation.z);
    }
    return false;
}

} // namespace vtx
