import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def copy_live_sessions(apps, schema_editor):
    """Carry the live sessions of ``django_session`` over, each with the id of the user its data logs in, so nobody
    is logged out by the move (a row whose data no longer decodes, or whose user is gone, stays behind)."""
    from django.contrib.auth import SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from django.utils import timezone

    Old = apps.get_model("sessions", "Session")
    New = apps.get_model("accounts", "Session")
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    alias = schema_editor.connection.alias
    users = set(User.objects.using(alias).values_list("pk", flat=True))
    decoder = SessionStore()  # the salt names the class, SessionStore, as for the site's store
    rows = []
    for old in Old.objects.using(alias).filter(expire_date__gt=timezone.now()).iterator():
        data = decoder.decode(old.session_data)  # {} when the data does not decode
        try:
            user_id = int(data[SESSION_KEY])
        except (KeyError, TypeError, ValueError):
            user_id = None
        if user_id is not None and user_id not in users:
            continue
        rows.append(New(session_key=old.session_key, session_data=old.session_data, expire_date=old.expire_date,
                        user_id=user_id))
    New.objects.using(alias).bulk_create(rows, batch_size=500)


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0001_initial'),
        ('sessions', '0001_initial'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='Session',
            fields=[
                ('session_key', models.CharField(max_length=40, primary_key=True, serialize=False, verbose_name='session key')),
                ('session_data', models.TextField(verbose_name='session data')),
                ('expire_date', models.DateTimeField(db_index=True, verbose_name='expire date')),
                ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'verbose_name': 'session',
                'verbose_name_plural': 'sessions',
                'db_table': 'accounts_session',
                'abstract': False,
            },
        ),
        migrations.RunPython(copy_live_sessions, migrations.RunPython.noop),
    ]
