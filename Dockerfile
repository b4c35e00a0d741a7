# One image for web (granian), worker and beat.
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
# granian, two single-threaded workers per core (WEB_CONCURRENCY overrides; WEB_SERVER=gunicorn
# for config/gunicorn.conf.py instead): config/webserver.py, docs/operations.md "Capacity"
CMD ["python", "-m", "config.webserver"]
