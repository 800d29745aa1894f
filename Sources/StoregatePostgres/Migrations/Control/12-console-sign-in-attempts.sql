-- console sign-in attempts, counted before they are checked
--
-- One row per person tried (tenant slug / email, known or not) with the times of its attempts within the
-- window: a sign-in counts its attempt here in one statement before any password hash is checked, and is
-- refused when the window holds the limit already. The row's lock makes attempts sent at once count one
-- after the other (the failures table of migration 09 was read, then written: attempts sent at once all
-- passed the count). A sign-in that succeeds deletes the row; rows idle past the window are dropped.

CREATE TABLE IF NOT EXISTS storegate.console_sign_in_attempts (
    user_key text PRIMARY KEY,
    attempted_at timestamptz[] NOT NULL,
    last_attempt_at timestamptz NOT NULL
)
;

CREATE INDEX IF NOT EXISTS console_sign_in_attempts_last ON storegate.console_sign_in_attempts (last_attempt_at)
;

DROP TABLE IF EXISTS storegate.console_sign_in_failures
;
