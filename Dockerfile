# One image for web (gunicorn), worker and beat.
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 DJANGO_SETTINGS_MODULE=config.settings.production
WORKDIR /app
COPY requirements.txt .
RUN pip install --no-cache-dir -r requirements.txt
COPY . .
RUN SECRET_KEY=build-only-not-secret-$(date +%s)-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx \
    EMAIL_URL=smtp://localhost:25 python manage.py collectstatic --noinput
RUN useradd --create-home app && mkdir -p /app/var && chown -R app /app/var
USER app
EXPOSE 8000
# two workers per core (WEB_CONCURRENCY overrides), 4 threads each (gthread), gc.freeze() after start-up: config/gunicorn.conf.py
CMD ["gunicorn", "-c", "config/gunicorn.conf.py", "config.wsgi"]
