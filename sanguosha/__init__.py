"""Three Kingdoms Kill (Sanguosha): the Django app around the pure engine in ``engine/``."""
