// SPDX-License-Identifier: MIT
#pragma once
// Tokens of the query language (see Expression.hpp for the grammar). The lexer only splits text;
// which words are keywords and what a path names is the compiler's business.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace vtx::query {

enum class TokenKind {
    End,
    Path, ///< Health, Player.Health, Trail[2].x, RoundStats[round 1].Kills (brackets hold anything but ']')
    Number, ///< 20, 0.5, 1e-3 (a leading '-' is the parser's unary minus)
    String, ///< "text" or 'text', with \" \' \\ \n \t escapes; `text` holds the unescaped value
    Equal,
    NotEqual,
    Less,
    LessEqual,
    Greater,
    GreaterEqual,
    And,
    Or,
    Not,
    Minus,
    LParen,
    RParen,
    Error, ///< a character or construct no token starts with; `text` says what went wrong
};

struct Token {
    TokenKind kind = TokenKind::End;
    size_t offset = 0; ///< byte offset of the token's first character in the expression text
    size_t length = 0; ///< bytes the token spans in the text
    std::string text; ///< the path's text, the number's digits, the string's unescaped value
};

/// Splits `text`; the last token is End, or Error (lexing stops at the first error).
std::vector<Token> tokenize(std::string_view text);

/// Human name of a token kind for "expected X, found Y" messages ("'<='", "a number", "the end").
std::string describe(const Token& t);

/// 0-based column of byte `offset` in `text`, counted in Unicode code points (what an editor
/// shows as the caret position), not bytes.
size_t columnOf(std::string_view text, size_t offset);

} // namespace vtx::query
