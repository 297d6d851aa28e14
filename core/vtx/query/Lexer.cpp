// SPDX-License-Identifier: MIT
#include "vtx/query/Lexer.hpp"

namespace vtx::query {

namespace {

// Names may hold any non-ASCII character (UTF-8 lead and continuation bytes are >= 0x80), so
// Unicode property and type names lex as paths.
bool nameStart(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || c >= 0x80;
}
bool nameChar(unsigned char c)
{
    return nameStart(c) || (c >= '0' && c <= '9');
}
bool digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

} // namespace

std::vector<Token> tokenize(std::string_view text)
{
    std::vector<Token> out;
    size_t i = 0;
    auto push = [&](TokenKind k, size_t start, std::string s = {}) { out.push_back(Token{k, start, i - start, std::move(s)}); };
    while (true) {
        while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
            ++i;
        const size_t start = i;
        if (i >= text.size()) {
            push(TokenKind::End, start);
            return out;
        }
        const unsigned char c = static_cast<unsigned char>(text[i]);
        const char next = i + 1 < text.size() ? text[i + 1] : '\0';
        auto two = [&](char second, TokenKind withSecond, TokenKind alone) {
            if (next == second) {
                i += 2;
                push(withSecond, start);
            } else {
                ++i;
                push(alone, start);
            }
        };
        if (nameStart(c)) {
            // A path: names joined by '.', each optionally followed by [index or key] groups.
            while (i < text.size()) {
                const unsigned char d = static_cast<unsigned char>(text[i]);
                // A name character, or a '.' that starts the next name.
                if (nameChar(d) || (d == '.' && i + 1 < text.size() && nameStart(static_cast<unsigned char>(text[i + 1])))) {
                    ++i;
                } else if (d == '[') {
                    const size_t close = text.find(']', i + 1);
                    if (close == std::string_view::npos) {
                        i = text.size();
                        push(TokenKind::Error, start, "'[' without a closing ']'");
                        return out;
                    }
                    i = close + 1;
                } else {
                    break;
                }
            }
            push(TokenKind::Path, start, std::string(text.substr(start, i - start)));
            continue;
        }
        if (digit(c) || (c == '.' && digit(static_cast<unsigned char>(next)))) {
            while (i < text.size() && (digit(static_cast<unsigned char>(text[i])) || text[i] == '.'))
                ++i;
            if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
                size_t j = i + 1;
                if (j < text.size() && (text[j] == '+' || text[j] == '-'))
                    ++j;
                if (j < text.size() && digit(static_cast<unsigned char>(text[j]))) {
                    i = j;
                    while (i < text.size() && digit(static_cast<unsigned char>(text[i])))
                        ++i;
                }
            }
            if (i < text.size() && nameChar(static_cast<unsigned char>(text[i]))) {
                push(TokenKind::Error, start, "a number followed by letters");
                return out;
            }
            push(TokenKind::Number, start, std::string(text.substr(start, i - start)));
            continue;
        }
        if (c == '"' || c == '\'') {
            std::string value;
            ++i;
            bool closed = false;
            while (i < text.size()) {
                const char d = text[i];
                if (d == static_cast<char>(c)) {
                    ++i;
                    closed = true;
                    break;
                }
                if (d == '\\' && i + 1 < text.size()) {
                    const char e = text[i + 1];
                    value += e == 'n' ? '\n' : e == 't' ? '\t' : e; // \" \' \\ and any other char as itself
                    i += 2;
                    continue;
                }
                value += d;
                ++i;
            }
            if (!closed) {
                push(TokenKind::Error, start, "a string without its closing quote");
                return out;
            }
            push(TokenKind::String, start, std::move(value));
            continue;
        }
        switch (c) {
        case '=':
            if (next == '=') {
                i += 2;
                push(TokenKind::Equal, start);
            } else {
                ++i;
                push(TokenKind::Error, start, "unexpected '=' (comparison is '==')");
                return out;
            }
            continue;
        case '!': two('=', TokenKind::NotEqual, TokenKind::Not); continue;
        case '<': two('=', TokenKind::LessEqual, TokenKind::Less); continue;
        case '>': two('=', TokenKind::GreaterEqual, TokenKind::Greater); continue;
        case '&':
        case '|':
            if (next == static_cast<char>(c)) {
                i += 2;
                push(c == '&' ? TokenKind::And : TokenKind::Or, start);
                continue;
            }
            ++i;
            push(TokenKind::Error, start, c == '&' ? "unexpected '&' (and is '&&')" : "unexpected '|' (or is '||')");
            return out;
        case '-':
            ++i;
            push(TokenKind::Minus, start);
            continue;
        case '(':
            ++i;
            push(TokenKind::LParen, start);
            continue;
        case ')':
            ++i;
            push(TokenKind::RParen, start);
            continue;
        default: {
            // One whole UTF-8 character in the message, not a lone byte.
            size_t len = 1;
            while (i + len < text.size() && (static_cast<unsigned char>(text[i + len]) & 0xC0) == 0x80)
                ++len;
            i += len;
            push(TokenKind::Error, start, "unexpected character '" + std::string(text.substr(start, len)) + "'");
            return out;
        }
        }
    }
}

std::string describe(const Token& t)
{
    switch (t.kind) {
    case TokenKind::End: return "the end";
    case TokenKind::Path: return "'" + t.text + "'";
    case TokenKind::Number: return "the number " + t.text;
    case TokenKind::String: return "a string";
    case TokenKind::Equal: return "'=='";
    case TokenKind::NotEqual: return "'!='";
    case TokenKind::Less: return "'<'";
    case TokenKind::LessEqual: return "'<='";
    case TokenKind::Greater: return "'>'";
    case TokenKind::GreaterEqual: return "'>='";
    case TokenKind::And: return "'&&'";
    case TokenKind::Or: return "'||'";
    case TokenKind::Not: return "'!'";
    case TokenKind::Minus: return "'-'";
    case TokenKind::LParen: return "'('";
    case TokenKind::RParen: return "')'";
    case TokenKind::Error: return t.text;
    }
    return "?";
}

size_t columnOf(std::string_view text, size_t offset)
{
    size_t col = 0;
    for (size_t i = 0; i < offset && i < text.size(); ++i)
        if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80)
            ++col;
    return col;
}

} // namespace vtx::query
