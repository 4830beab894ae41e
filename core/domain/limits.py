"""What the database's integer columns hold (PostgreSQL integer and smallint), and so the most a
number field may be."""

INT_MAX = 2_147_483_647
SMALL_MAX = 32_767
