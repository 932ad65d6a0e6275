-- How a member's own private messages (the hand, a hint) show cards: 'pictures' (the bot's
-- card emojis, while it has them) or 'text' (J♥, 10♦). A member with no row sees what every
-- public message shows. Text is for screen readers, which read a card emoji as its code,
-- and for members who read text more easily.
CREATE TABLE member_card_looks (
    user_id     INTEGER PRIMARY KEY,
    cards       TEXT    NOT NULL CHECK (cards IN ('pictures', 'text'))
);
