{ "dependsOn": ["database", "idempotency", "validation"] }
