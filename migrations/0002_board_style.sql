-- Board pictures: each game remembers how its board is shown, and each
-- player the style they last chose. 'auto' means emoji up to the configured
-- size, a picture above it.
ALTER TABLE games ADD COLUMN style TEXT NOT NULL DEFAULT 'auto' CHECK (style IN ('auto', 'emoji', 'image'));
ALTER TABLE players ADD COLUMN board_style TEXT NOT NULL DEFAULT 'auto' CHECK (board_style IN ('auto', 'emoji', 'image'));
ALTER TABLE challenges ADD COLUMN style TEXT NOT NULL DEFAULT 'auto' CHECK (style IN ('auto', 'emoji', 'image'));
